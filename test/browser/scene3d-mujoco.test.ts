// The 3D view with MuJoCo as the solver, in headless Chromium with a software WebGL (SwiftShader): the
// inspector's MuJoCo session (its worker's handler run in this process) steps a model where a brick
// falls onto the floor beside a pendulum; the panel's model of that run draws the converted scene's
// bodies where MuJoCo's records put them (step 0 as the model starts, the brick lower after the fall)
// and the shown step's contacts from MuJoCo's snapshot. A screenshot of the last step is written.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { PanelModel } from '../../src/protocol';
import { ROOT } from './fixtures';
import { mujocoRun } from './mujocoFixture';
import { requireChromium, THEMES } from './harness';
import { canvasBox, create, distance, hexRgb, launch3d, openScene, pixel, screen, shoot, type ScenePage } from './scene3d/open';

requireChromium();
const PATH = join(ROOT, 'test', 'fixtures', 'import', 'mujoco', 'falling-brick.xml');
const N = 150;

/** MuJoCo's run of the model as the panel holds it after N steps, the last step's snapshot among its snapshots. */
async function mujocoModel(): Promise<PanelModel> {
  const { model, records, last } = await mujocoRun(PATH, N);
  return { ...model, history: records, snapshots: [last] };
}

describe('3D view under MuJoCo', () => {
  let browser: Browser;
  let model: PanelModel;
  const open: ScenePage[] = [];
  before(async () => {
    browser = await launch3d();
    model = await mujocoModel();
  });
  afterEach(async () => {
    for (const p of open.splice(0)) await p.close().catch(() => undefined);
  });
  after(async () => {
    await browser?.close();
  });

  test('draws MuJoCo’s bodies where its records put them, and its contacts at the shown step', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    open.push(p);
    assert.equal((await create(p, model, { step: 0 })).available, true, 'WebGL (SwiftShader) is available');
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const box = await canvasBox(p);
    const inside = (s: { x: number; y: number } | undefined, what: string): { x: number; y: number } => {
      assert.ok(s && s.x > 0 && s.x < box.width && s.y > 0 && s.y < box.height, `${what} is on the canvas: ${JSON.stringify(s)}`);
      return s;
    };
    // step 0: every body is drawn at its place (a pixel of the body's colour, not the background)
    const at0: Record<string, { x: number; y: number }> = {};
    for (const body of ['brick', 'bob', 'frame']) {
      at0[body] = inside(await screen(p, { body }), `${body} at step 0`);
      const c = await pixel(p, at0[body].x, at0[body].y);
      assert.ok(distance(c, bg) > 30, `${body} is drawn at step 0: ${c} vs background ${bg}`);
    }
    // the last step: the brick fell (lower on the screen, the z axis up), still drawn; the frame did not move
    await p.page.evaluate((k) => window.cl3d.setStep(k), N);
    const brick = inside(await screen(p, { body: 'brick' }), 'brick at the last step');
    assert.ok(brick.y > at0.brick.y + 5, `the brick is drawn lower after the fall: y ${at0.brick.y} → ${brick.y}`);
    assert.ok(distance(await pixel(p, brick.x, brick.y), bg) > 30, 'the brick is drawn at the last step');
    const frame = inside(await screen(p, { body: 'frame' }), 'frame at the last step');
    assert.ok(Math.hypot(frame.x - at0.frame.x, frame.y - at0.frame.y) < 1, 'the welded frame stays');
    // MuJoCo's contacts of the shown step (brick on the floor) are placed on the canvas, near the brick
    const contacts = model.snapshots?.[0].contacts ?? [];
    assert.ok(contacts.length > 0, 'MuJoCo has contacts at the last step');
    const name = `${contacts[0].bodyA}/${contacts[0].shapeA}–${contacts[0].bodyB}/${contacts[0].shapeB}`;
    const c = inside(await screen(p, { contact: contacts.filter((x) => x.shapeA === contacts[0].shapeA && x.shapeB === contacts[0].shapeB).length > 1 ? `${name} #1` : name }), 'the first contact');
    assert.ok(Math.hypot(c.x - brick.x, c.y - brick.y) < 80, `the contact is at the brick: ${JSON.stringify(c)} vs ${JSON.stringify(brick)}`);
    // not empty: a good part of the canvas is something other than the background
    const px = await p.page.evaluate(([w, h]) => window.cl3d.region(0, 0, w, h), [Math.floor(box.width), Math.floor(box.height)] as const);
    let drawn = 0;
    for (let i = 0; i < px.length; i += 3) if (distance([px[i], px[i + 1], px[i + 2]], bg) > 30) drawn++;
    assert.ok(drawn > 2000, `${drawn} pixels drawn`);
    assert.deepEqual(p.problems, []);
    console.log(`# screenshot: ${await shoot(p, 'scene3d-mujoco-falling-brick')}`);
  });
});
