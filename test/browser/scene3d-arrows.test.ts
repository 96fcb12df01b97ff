// The 3D view's contact arrows in headless Chromium (SwiftShader): on the box stack (velocity
// solver, at rest: no friction drawn, the ground's made minimum-norm by PGS and those between the boxes below the floor)
// and the box on the incline, the arrows' widths follow the forces, every friction above the noise
// floor is drawn long enough to be seen (measured on screen), friction arrows start at their normal
// arrow's base in their own colour, and contacts at one point are fanned out; screenshots in both themes.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { ContactReport, PanelModel } from '../../src/protocol';
import type { ArrowSpec } from '../../webview/scene3d/arrowLayout';
import { requireChromium, THEMES, type ThemeName } from './harness';
import { exampleModel } from './scene3d/models';
import { create, distance, hexRgb, launch3d, openScene, pixel, shoot, type ScenePage } from './scene3d/open';

requireChromium();

const contactsAt = (m: PanelModel, k: number): ContactReport[] => (m.history[k - 1] as { contacts?: ContactReport[] }).contacts ?? [];
const arrowsOf = (p: ScenePage): Promise<ArrowSpec[]> => p.page.evaluate(() => window.cl3d.info().arrows.map((a) => ({ ...a })));
const project = (p: ScenePage, q: readonly number[]): Promise<{ x: number; y: number }> => p.page.evaluate((w) => window.cl3d.project(w)!, [q[0], q[1], q[2]] as [number, number, number]);
const tip = (a: ArrowSpec): number[] => a.o.map((x, i) => x + a.v[i]);
const lengthPx = async (p: ScenePage, a: ArrowSpec): Promise<number> => {
  const [s, e] = [await project(p, a.o), await project(p, tip(a))];
  return Math.hypot(e.x - s.x, e.y - s.y);
};

describe('3D view: contact arrows (width by magnitude, minimum length, friction colour, coincident contacts)', () => {
  let browser: Browser;
  let stack: PanelModel;
  let incline: PanelModel;
  const open: ScenePage[] = [];
  const page = async (theme: ThemeName): Promise<ScenePage> => {
    const p = await openScene(browser, { theme, width: 900, height: 560 });
    open.push(p);
    return p;
  };
  before(async () => {
    browser = await launch3d();
    stack = exampleModel('box-stack.velocity', 60);
    incline = exampleModel('box-incline', 60);
  });
  afterEach(async () => {
    for (const p of open.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    await browser?.close();
  });

  test('box stack: normal arrows thicker for larger forces; the resting stack draws no friction; on the incline the frictions start at the normal arrow\'s base, in the friction colour', async () => {
    const p = await page('dark');
    await create(p, stack, { step: 60 });
    const cs = contactsAt(stack, 60);
    const arrows = await arrowsOf(p);
    const normals = arrows.filter((a) => a.kind === 'normal');
    assert.equal(normals.length, cs.length, 'every contact carries a normal force');
    // Widths ordered by magnitude: sorting by |λn| sorts the radii (ties within 1 %).
    const byForce = normals.map((a) => ({ f: cs[a.id].normalForce!, r: a.r })).sort((a, b) => a.f - b.f);
    for (let i = 1; i < byForce.length; i++) {
      assert.ok(byForce[i].r >= byForce[i - 1].r, `radius follows force: ${JSON.stringify(byForce[i - 1])} then ${JSON.stringify(byForce[i])}`);
      if (byForce[i].f > byForce[i - 1].f * 1.01) assert.ok(byForce[i].r > byForce[i - 1].r);
    }
    assert.ok(byForce.at(-1)!.r > 1.4 * byForce[0].r, `the ground's 7.3 N arrows are much thicker than the top box's 1.8 N: ${byForce.at(-1)!.r} vs ${byForce[0].r}`);
    // Along each vertical edge the ground's arrow rises towards the one between the boxes: fanned out, no two normal arrows touch (shafts sampled every 5 %).
    const at = (a: ArrowSpec, t: number): number[] => a.o.map((x, i) => x + a.v[i] * t);
    for (let i = 0; i < normals.length; i++)
      for (let j = i + 1; j < normals.length; j++) {
        let gap = Infinity;
        for (let s = 0; s <= 20; s++) for (let t = 0; t <= 20; t++) gap = Math.min(gap, Math.hypot(...at(normals[i], s / 20).map((x, k) => x - at(normals[j], t / 20)[k])));
        assert.ok(gap > normals[i].r + normals[j].r, `normal arrows of contacts ${normals[i].id} and ${normals[j].id} are ${gap} m apart, radii ${normals[i].r} and ${normals[j].r}`);
      }
    // Frictions: a level stack at rest needs none. PGS makes a sticking face's friction minimum-norm, so
    // the ground's are round-off (1e-9 N) and between the boxes only what holds them on faces tilted within
    // the contact slop is left (≤ 2e-4 N, below a hundred-thousandth of their weight): no arrow.
    assert.deepEqual(arrows.filter((a) => a.kind === 'friction').map((a) => Math.hypot(...cs[a.id].frictionForce!)), [], 'no friction arrow on the resting stack');
    for (const c of cs) assert.ok(Math.hypot(...c.frictionForce!) < 5e-4, `friction ${Math.hypot(...c.frictionForce!)} N on the resting stack`);
    // On the incline the frictions hold the box: newtons, each drawn from its normal arrow's base.
    await create(p, incline, { step: 60 });
    const ics = contactsAt(incline, 60);
    const iarrows = await arrowsOf(p);
    const frictions = iarrows.filter((a) => a.kind === 'friction');
    for (const f of frictions) {
      const n = iarrows.find((x) => x.kind === 'normal' && x.id === f.id)!;
      assert.ok(Math.hypot(...f.o.map((x, i) => x - n.o[i])) <= f.r * 1.0001, 'the friction arrow starts at the normal arrow\'s base (lifted by its radius)');
    }
    const ground = frictions.filter((f) => Math.hypot(...ics[f.id].frictionForce!) > 0.1);
    assert.ok(ground.length >= 1, `the incline's frictions: ${frictions.map((f) => Math.hypot(...ics[f.id].frictionForce!)).join(', ')}`);
    for (const f of ground) assert.ok((await lengthPx(p, f)) >= 8, `a ${Math.hypot(...ics[f.id].frictionForce!).toExponential(1)} N friction is at least 8 px long on screen: ${await lengthPx(p, f)}`);
    // The friction colour (the theme's purple) is drawn at a ground friction arrow's tip, the contacts' green is not.
    const purple = hexRgb(THEMES.dark.vars['--vscode-charts-purple']);
    let best = Infinity;
    for (const f of ground) {
      const q = tip(f).map((x, i) => x - f.v[i] * 0.3);
      const s = await project(p, q);
      best = Math.min(best, distance(await pixel(p, s.x, s.y), purple));
    }
    assert.ok(best < 90, `an incline friction arrow's head is drawn in the friction colour (distance ${best})`);
    assert.match(await p.page.locator('.cl3d-legend').innerText(), /contact arrows: normal and\s*friction force on body A/);
    assert.deepEqual(p.problems, []);
  });

  test('contacts at one point (a duplicated edge contact) are fanned out: their arrows start apart on screen; lone contacts stay on their point', async () => {
    const p = await page('dark');
    const m = structuredClone(incline);
    const rec = m.history[59] as { contacts: ContactReport[]; contactForces?: unknown[] };
    const cs = rec.contacts;
    // A second contact 0.1 mm from the first (a mesh's or an edge's duplicate): on screen the same point.
    cs.push({ ...cs[0], point: [cs[0].point[0] + 1e-4, cs[0].point[1], cs[0].point[2]] });
    if (rec.contactForces) rec.contactForces.push(structuredClone(rec.contactForces[0]));
    await create(p, m, { step: 60 });
    const arrows = (await arrowsOf(p)).filter((a) => a.kind === 'normal');
    const a0 = arrows.find((a) => a.id === 0)!;
    const dup = arrows.find((a) => a.id === cs.length - 1)!;
    assert.ok(a0 && dup, 'both coincident contacts have a normal arrow');
    const [s0, s1] = [await project(p, a0.o), await project(p, dup.o)];
    const apart = Math.hypot(s0.x - s1.x, s0.y - s1.y);
    assert.ok(apart > 3, `the two arrows start ${apart.toFixed(1)} px apart`);
    for (const a of arrows.filter((x) => x.id !== 0 && x.id !== cs.length - 1 && x.kind === 'normal')) assert.deepEqual(a.o, cs[a.id].point, `contact ${a.id} is not moved`);
    assert.deepEqual(p.problems, []);
  });

  test('screenshots (dark and light): the box stack (velocity) and the box on the incline', async () => {
    const shots: string[] = [];
    for (const theme of ['dark', 'light'] as ThemeName[]) {
      const p = await page(theme);
      // A tall view for the tall stack: the arrows at its corners are a few pixels wide at the default height.
      await p.page.setViewportSize({ width: 700, height: 900 });
      await p.page.evaluate(() => document.documentElement.style.setProperty('--cl3d-height', '860px'));
      await create(p, stack, { step: 60 });
      shots.push(await shoot(p, `scene3d-arrows-box-stack-velocity-${theme}`));
      await p.page.evaluate(() => document.documentElement.style.removeProperty('--cl3d-height'));
      await p.page.setViewportSize({ width: 900, height: 560 });
      await create(p, incline, { step: 60 });
      const arrows = await arrowsOf(p);
      assert.equal(arrows.filter((a) => a.kind === 'friction').length, contactsAt(incline, 60).length, 'every contact on the incline shows its friction');
      shots.push(await shoot(p, `scene3d-arrows-box-incline-${theme}`));
      assert.deepEqual(p.problems, []);
    }
    console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });
});
