// The 3D view's contacts (webview/scene3d) in headless Chromium with a software WebGL (SwiftShader),
// on the engine's own contact examples: the shapes, the ground tile, the contact points and their
// arrows are drawn (pixel checks at projected positions); a contact is picked by click, hover and
// keyboard and named (bodies, shapes, gap, normal force, state); the selection follows the contact
// over the timeline; the trail; the arrow scale from the keyboard; a clear message when WebGL
// cannot start; screenshots of box-stack, the bouncing ball and a chain on the ground.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { ContactReport, PanelModel } from '../../src/protocol';
import { formatNumber } from '../../src/shared';
import { requireChromium, THEMES, type ThemeName } from './harness';
import { exampleModel, modelFromText } from './scene3d/models';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './fixtures';
import { canvasBox, create, distance, hexRgb, launch3d, openScene, pixel, screen, shoot, type Rgb, type ScenePage } from './scene3d/open';

requireChromium();

/** The contacts a record carries (the engine's ContactReport). */
const contactsAt = (m: PanelModel, k: number): ContactReport[] => (m.history[k - 1] as { contacts?: ContactReport[] }).contacts ?? [];

/** The view's names of a step's contacts: `A/shapeA–B/shapeB`, with ` #k` when the pair touches at several points. */
function contactNames(cs: readonly ContactReport[]): string[] {
  const pair = (c: ContactReport): string => `${c.bodyA}/${c.shapeA}–${c.bodyB}/${c.shapeB}`;
  return cs.map((c, k) => {
    const same = cs.filter((x) => pair(x) === pair(c));
    return same.length > 1 ? `${pair(c)} #${cs.slice(0, k + 1).filter((x) => pair(x) === pair(c)).length}` : pair(c);
  });
}

const greenish = (c: Rgb): boolean => c[1] > c[0] + 20 && c[1] > c[2] + 20;
const blueish = (c: Rgb): boolean => c[2] > c[0] + 40 && c[2] > c[1] + 10;

/** Pixels of a block that satisfy `ok`. */
async function count(p: ScenePage, x: number, y: number, w: number, h: number, ok: (c: Rgb) => boolean): Promise<number> {
  const px = await p.page.evaluate(([a, b, c, d]) => window.cl3d.region(a, b, c, d), [x, y, w, h] as const);
  let n = 0;
  for (let i = 0; i < px.length; i += 3) if (ok([px[i], px[i + 1], px[i + 2]])) n++;
  return n;
}

const legend = (p: ScenePage): Promise<string> => p.page.locator('.cl3d-legend').innerText();

describe('3D view: contacts, trail, arrow scale, no WebGL', () => {
  let browser: Browser;
  let stack: PanelModel;
  let ball: PanelModel;
  const open: ScenePage[] = [];
  const page = async (opts: Parameters<typeof openScene>[1]): Promise<ScenePage> => {
    const p = await openScene(browser, opts);
    open.push(p);
    return p;
  };
  before(async () => {
    browser = await launch3d();
    stack = exampleModel('box-stack', 60);
    ball = exampleModel('bouncing-ball', 1200);
  });
  afterEach(async () => {
    for (const p of open.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    await browser?.close();
  });

  /** The step's contacts with their names and screen positions, the lowest on screen (the front-most ground contact) first. */
  async function onScreen(p: ScenePage, m: PanelModel, k: number): Promise<{ c: ContactReport; name: string; x: number; y: number }[]> {
    const cs = contactsAt(m, k);
    const names = contactNames(cs);
    const out = [];
    for (let i = 0; i < cs.length; i++) {
      const s = await screen(p, { contact: names[i] });
      assert.ok(s, `contact ${names[i]} is in front of the camera`);
      out.push({ c: cs[i], name: names[i], ...s });
    }
    return out.sort((a, b) => b.y - a.y);
  }

  test('box-stack: the three boxes, the ground tile and every contact are drawn; the contact arrows in the state colour', async () => {
    const p = await page({ theme: 'dark' });
    assert.equal((await create(p, stack, { step: 60 })).available, true);
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    assert.ok(distance(await pixel(p, 3, 3), bg) < 12, 'cleared to the theme background');
    const box = await canvasBox(p);
    for (const body of ['bottom', 'middle', 'top']) {
      const s = (await screen(p, { body }))!;
      assert.ok(s.x > 0 && s.x < box.width && s.y > 0 && s.y < box.height, `${body} is in the view`);
      assert.ok(distance(await pixel(p, s.x, s.y), bg) > 60, `the box of ${body} is drawn at its centre`);
    }
    // 12 contacts: four corners on the ground and four on each of the two faces between the boxes, all sticking.
    const cs = await onScreen(p, stack, 60);
    assert.equal(cs.length, 12);
    assert.ok(cs.every((x) => x.c.state === 'stick'));
    const front = cs[0];
    assert.equal(front.c.bodyB, 'world', 'the lowest contact on screen is on the ground');
    const at = await pixel(p, front.x, front.y);
    assert.ok(greenish(at), `the front ground contact is drawn in the stick colour: ${at}`);
    // Its normal-force arrow rises from it (force on the bottom box, up): green pixels above the point, gone with the arrows off.
    const arrowPx = (): Promise<number> => count(p, front.x - 5, front.y - 40, 11, 30, greenish);
    const withArrows = await arrowPx();
    assert.match(await legend(p), /contacts\s*stick/);
    assert.match(await legend(p), /contact arrows: normal and\s*friction force/);
    // Forces: all → selected → off from the keyboard (V), the camera unchanged.
    await p.page.focus('.cl3d-canvas');
    await p.page.keyboard.press('v');
    await p.page.keyboard.press('v');
    await p.page.waitForFunction(() => document.querySelector('.cl3d-btn[title^="Force and torque"]')?.textContent === 'Forces: off', undefined, { timeout: 3000 });
    const without = await arrowPx();
    assert.ok(withArrows > without + 15, `the arrow above the contact: ${withArrows} green pixels with arrows, ${without} without`);
    assert.ok(greenish(await pixel(p, front.x, front.y)), 'contact points stay when the arrows are off');
    // The ground plane is a tile under the scene: the middle of a grid cell in front of the stack differs from the background.
    const grid = Number(/grid ([\d.e-]+) m/.exec(await p.page.locator('.cl3d-scale').innerText())![1]);
    const g = (await p.page.evaluate((q) => window.cl3d.project(q), [3.5 * grid, -2.5 * grid, 0] as [number, number, number]))!;
    const tile = await pixel(p, g.x, g.y);
    assert.ok(distance(tile, bg) > 12, `the ground tile is drawn: ${tile} vs ${bg}`);
    assert.deepEqual(p.problems, []);
  });

  test('picking a contact (click, hover, Tab) selects it and names it: bodies, shapes, gap, normal force, state', async () => {
    const p = await page({ theme: 'dark' });
    await create(p, stack, { step: 60 });
    const cs = await onScreen(p, stack, 60);
    const front = cs[0];
    const box = await canvasBox(p);
    await p.page.mouse.click(box.x + front.x, box.y + front.y);
    const last = (): Promise<unknown> => p.page.evaluate(() => window.cl3d.selections.at(-1));
    assert.deepEqual(await last(), { contact: front.name });
    assert.match(front.name, /^bottom\/bottomBox–world\/ground #\d$/);
    const info = await p.page.evaluate(() => window.cl3d.info());
    assert.deepEqual(info.selection, { contact: front.name });
    const words = `contact ${front.name} · stick · gap ${formatNumber(front.c.gap, 3)} m · normal force ${formatNumber(front.c.normalForce, 3)} N`;
    assert.ok(info.selectionText.startsWith(words), `${info.selectionText} starts with ${words}`);
    assert.ok(front.c.normalForce > 5 && front.c.normalForce < 10, `a corner carries about 3mg/4 = 7.36 N: ${front.c.normalForce}`);
    const selLabel = p.page.locator('.cl3d-label-sel');
    await selLabel.waitFor({ state: 'visible', timeout: 3000 });
    assert.equal(await selLabel.innerText(), info.selectionText);
    assert.equal(await p.page.locator('.cl3d-sr').innerText(), `Selected ${info.selectionText}`, 'announced to screen readers');
    assert.ok(blueish(await pixel(p, front.x, front.y)), 'the selected contact is drawn in the focus colour');
    // Hovering another contact labels it; the two labels do not overlap.
    const other = cs.find((x) => Math.hypot(x.x - front.x, x.y - front.y) > 30)!;
    await p.page.mouse.move(box.x + other.x, box.y + other.y);
    const hover = p.page.locator('.cl3d-label:not(.cl3d-label-sel)');
    await hover.waitFor({ state: 'visible', timeout: 3000 });
    assert.match(await hover.innerText(), new RegExp(`^contact ${other.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} · stick`));
    const [ra, rb] = [await hover.boundingBox(), await selLabel.boundingBox()];
    assert.ok(ra && rb && (ra.y >= rb.y + rb.height || rb.y >= ra.y + ra.height || ra.x >= rb.x + rb.width || rb.x >= ra.x + ra.width), 'labels do not overlap');
    // The timeline: the selection follows the same contact (same pair, nearest point) to the next step.
    await p.page.mouse.move(box.x + 2, box.y + box.height - 2);
    await p.page.evaluate(() => window.cl3d.setStep(59));
    const back = (await p.page.evaluate(() => window.cl3d.info())).selection.contact!;
    const i59 = contactNames(contactsAt(stack, 59)).indexOf(back);
    assert.ok(i59 >= 0, `${back} is a contact of step 59`);
    assert.ok(Math.hypot(...contactsAt(stack, 59)[i59].point.map((x, j) => x - front.c.point[j])) < 1e-3, 'the same corner');
    // Keyboard: Escape clears; Tab goes through the bodies, then the step's contacts; shift+Tab back.
    await p.page.focus('.cl3d-canvas');
    await p.page.keyboard.press('Escape');
    assert.deepEqual(await last(), {});
    await p.page.evaluate(() => window.cl3d.setStep(60));
    assert.deepEqual((await p.page.evaluate(() => window.cl3d.info())).selection, {}, 'a cleared contact stays cleared on the next step');
    const order: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      await p.page.keyboard.press('Tab');
      order.push(await last());
    }
    assert.deepEqual(order, [{ body: 'bottom' }, { body: 'middle' }, { body: 'top' }, { contact: contactNames(contactsAt(stack, 60))[0] }]);
    await p.page.keyboard.press('Shift+Tab');
    assert.deepEqual(await last(), { body: 'top' });
    // And from outside (the contacts card, a test): by name.
    await p.page.evaluate((name) => window.cl3d.select({ contact: name }), cs[3].name);
    assert.match((await p.page.evaluate(() => window.cl3d.info())).selectionText, /^contact (bottom|middle)\//);
    assert.deepEqual(p.problems, []);
  });

  test('bouncing ball: the sphere falls along the timeline; its contact appears at the impact and nowhere else', async () => {
    const ks = ball.history.filter((r) => contactsAt(ball, r.step).length).map((r) => r.step);
    assert.ok(ks.length >= 2 && ks[0] > 400 && ks[0] < 500, `the first impact near t = √(2·1/g) = 0.45 s: steps ${ks.join(', ')}`);
    const impact = ks[0];
    const p = await page({ theme: 'light' });
    await create(p, ball, { step: 0, preset: 'XZ' });
    const bg = hexRgb(THEMES.light.vars['--vscode-editor-background']);
    const s0 = (await screen(p, { body: 'ball' }))!;
    assert.ok(distance(await pixel(p, s0.x, s0.y), bg) > 60, 'the sphere is drawn at its start');
    assert.doesNotMatch(await legend(p), /contacts/);
    await p.page.evaluate((k) => window.cl3d.setStep(k), impact);
    const s1 = (await screen(p, { body: 'ball' }))!;
    assert.ok(s1.y - s0.y > 100, `the ball fell on screen: ${s0.y} → ${s1.y}`);
    assert.ok(distance(await pixel(p, s1.x, s1.y), bg) > 60, 'the sphere is drawn where it landed');
    const name = 'ball/sphere–world/ground';
    assert.deepEqual(contactNames(contactsAt(ball, impact)), [name]);
    const c = (await screen(p, { contact: name }))!;
    assert.ok(Math.abs(c.x - s1.x) < 2 && c.y > s1.y, 'the contact is under the ball');
    assert.ok(greenish(await pixel(p, c.x, c.y)), 'the contact point is drawn in the stick colour');
    assert.match(await legend(p), /contacts\s*stick/);
    await p.page.evaluate(() => window.cl3d.setStep(300));
    assert.equal(await screen(p, { contact: name }), undefined, 'no contact in mid-air');
    assert.doesNotMatch(await legend(p), /contacts/);
    assert.deepEqual(p.problems, []);
  });

  test('trail of the body positions over the run: off by default, T shows it along the recorded path', async () => {
    const p = await page({ theme: 'dark' });
    await create(p, ball, { step: 1200, preset: 'XZ' });
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    // A point of the path the ball left long ago (it never rises that high again after the first bounce).
    const q = (await p.page.evaluate(() => window.cl3d.project([0, 0, 0.85])))!;
    const near = (): Promise<number> => count(p, q.x - 2, q.y, 5, 1, (c) => distance(c, bg) > 30);
    assert.equal(await near(), 0, 'no trail by default');
    assert.equal(await p.page.locator('.cl3d-btn', { hasText: 'Trail' }).innerText(), 'Trail: off');
    await p.page.focus('.cl3d-canvas');
    await p.page.keyboard.press('t');
    await p.page.waitForFunction(() => document.querySelector('.cl3d-btn[title^="Trail"]')?.textContent === 'Trail: all', undefined, { timeout: 3000 });
    assert.ok((await near()) > 0, 'the trail passes through the old positions');
    // Back at step 5 the ball (dropped from z = 1.1) has not reached z = 0.85: the trail ends at the shown step.
    await p.page.evaluate(() => window.cl3d.setStep(5));
    assert.equal(await near(), 0, 'the trail ends at the shown step');
    assert.deepEqual(p.problems, []);
  });

  test('arrow scale from the keyboard: [ and ] shorten and lengthen the arrows, the slider follows and takes arrow keys', async () => {
    const p = await page({ theme: 'dark' });
    await create(p, stack, { step: 60 });
    const front = (await onScreen(p, stack, 60))[0];
    const ref = async (): Promise<number> => Number(/force ([\d.e-]+) N/.exec(await legend(p))![1]);
    // The column above the front ground contact: its arrow (up) and the arrow of the contact above it (down).
    const column = (): Promise<number> => count(p, front.x - 5, front.y - 160, 11, 150, greenish);
    const slider = p.page.locator('.cl3d-range');
    const [r0, px0] = [await ref(), await column()];
    await p.page.focus('.cl3d-canvas');
    for (let i = 0; i < 3; i++) await p.page.keyboard.press('[');
    assert.ok(Math.abs(Number(await slider.inputValue()) + 0.3) < 1e-9, 'the slider shows ×10^−0.3');
    const px1 = await column();
    assert.ok(px1 < px0 - 10, `the arrows got shorter: ${px0} → ${px1} green pixels`);
    assert.ok((await ref()) > r0, `the legend's reference arrow now means more force: ${r0} → ${await ref()} N`);
    for (let i = 0; i < 3; i++) await p.page.keyboard.press(']');
    assert.ok(Math.abs(Number(await slider.inputValue())) < 1e-9);
    assert.equal(await column(), px0, 'back to the same arrows');
    assert.equal(await ref(), r0);
    await slider.focus();
    for (let i = 0; i < 4; i++) await p.page.keyboard.press('ArrowRight');
    assert.equal(await p.page.evaluate(() => document.activeElement?.className), 'cl3d-range', 'the slider keeps the focus while the legend updates');
    assert.ok(Math.abs(Number(await slider.inputValue()) - 0.2) < 1e-9, `the slider itself takes the arrow keys: ${await slider.inputValue()}`);
    assert.notEqual(await column(), px0, 'and rescales the arrows');
    assert.deepEqual(p.problems, []);
  });

  test('sleeping islands: at a step where the stack sleeps its boxes are drawn faded towards the background and the legend counts them', async () => {
    const example = readFileSync(join(ROOT, 'examples', 'box-stack.velocity.scene.json'), 'utf8');
    const text = example.replace('"formulation": "velocity"}', '"formulation": "velocity", "contacts": {"sleep": true}}');
    assert.notEqual(text, example);
    const sleepy = modelFromText(text, 'box-stack-sleep.scene.json', 100, [100]);
    const awake = modelFromText(example, 'box-stack.velocity.scene.json', 100, [100]);
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const centres = async (m: PanelModel): Promise<{ legend: string; far: number[] }> => {
      const p = await page({ theme: 'dark' });
      assert.equal((await create(p, m, { step: 100 })).available, true);
      const far: number[] = [];
      for (const body of ['bottom', 'middle', 'top']) {
        const at = (await screen(p, { body }))!;
        far.push(distance(await pixel(p, at.x, at.y), bg));
      }
      if (m === sleepy) await shoot(p, '3d-box-stack-asleep-dark');
      return { legend: await legend(p), far };
    };
    const a = await centres(awake), z = await centres(sleepy);
    assert.match(z.legend, /3 bodies asleep \(faded\)/);
    assert.doesNotMatch(a.legend, /asleep/);
    // the same poses (the stack sleeps where it rests): each box nearer the background than awake, still drawn
    for (let i = 0; i < 3; i++) assert.ok(z.far[i] < 0.75 * a.far[i] && z.far[i] > 20, `box ${i}: ${z.far[i]} from the background asleep, ${a.far[i]} awake`);
  });

  test('WebGL unavailable (getContext throws or returns null): a clear message, not a blank box', async () => {
    for (const mode of ['throw', true] as const) {
      const p = await page({ theme: 'dark', noWebGL: mode });
      const r = await create(p, stack, { step: 60 });
      assert.equal(r.available, false);
      const msg = p.page.locator('.cl3d-message[role="status"]');
      assert.ok(await msg.isVisible());
      const text = await msg.innerText();
      assert.match(text, /needs WebGL 2, which is not available here/);
      assert.match(text, mode === 'throw' ? /WebGL failed to start: Could not create a WebGL context/ : /refused to create a WebGL 2 context/);
      assert.match(text, /matrices, charts and diagnostics do not depend on it/);
      assert.equal(await p.page.locator('.cl3d-canvas').count(), 0);
      const size = (await msg.boundingBox())!;
      assert.ok(size.height > 100, 'the message fills the view');
    }
  });

  test('screenshots (dark and light): box stack with a contact picked, the bouncing ball at its impact, a chain on the ground', async () => {
    const chain = exampleModel('chain-ground', 150);
    const impact = ball.history.find((r) => contactsAt(ball, r.step).length)!.step;
    const shots: string[] = [];
    for (const theme of ['dark', 'light'] as ThemeName[]) {
      const p = await page({ theme, width: 900, height: 560 });
      await create(p, stack, { step: 60 });
      const front = (await onScreen(p, stack, 60))[0];
      await p.page.evaluate((name) => window.cl3d.select({ contact: name }), front.name);
      shots.push(await shoot(p, `scene3d-box-stack-${theme}`));
      await create(p, ball, { step: impact, preset: 'XZ', trail: 'all' });
      shots.push(await shoot(p, `scene3d-bouncing-ball-${theme}`));
      await create(p, chain, { step: 150 });
      // Capsules: every link is drawn at its centre, and the step's contacts with the ground are in the view.
      const bg = hexRgb(THEMES[theme].vars['--vscode-editor-background']);
      for (const b of chain.sceneBodies) {
        const s = (await screen(p, { body: b.name }))!;
        assert.ok(distance(await pixel(p, s.x, s.y), bg) > 40, `capsule ${b.name} drawn`);
      }
      assert.ok(contactsAt(chain, 150).length > 0 && (await onScreen(p, chain, 150)).length === contactsAt(chain, 150).length);
      shots.push(await shoot(p, `scene3d-chain-ground-${theme}`));
      assert.deepEqual(p.problems, []);
    }
    console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });
});
