// The panel on a scene in quaternion coordinates (msd-sim's Lagrange framework) in headless Chromium:
// J has 7 columns per body labelled x y z qw qx qy qz, drawn as one block per body, the unit-quaternion
// row is a row like any other (its label and tooltip), and M⁻¹ is msd-sim's 7×7 block.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { fixtureFromText, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath } from './harness';

requireChromium();

// a turned body (every quaternion column of its unit row is non-zero) on a tether to the world origin
const TEXT = JSON.stringify({
  name: 'msd-sim turned tether',
  solver: { dt: 0.016, steps: 10, alpha: 10, beta: 10, coordinates: 'quaternion' },
  bodies: [{ name: 'Cube', mass: 10, inertia: [1.5, 2, 2.5], position: [3, 0, -4], orientation: [0.3, -0.2, 0.4, Math.sqrt(1 - 0.09 - 0.04 - 0.16)] }],
  constraints: [{ name: 'tether', type: 'distance', bodyA: 'world', bodyB: 'Cube', length: 5 }],
});

interface Geometry {
  L: number;
  T: number;
  W: number;
  H: number;
  sx: number;
  sy: number;
  ox: number;
  oy: number;
  left: number;
  top: number;
}
async function geometry(page: Page): Promise<Geometry> {
  return page.$eval('.cl-heatmap-canvas', (c) => {
    const el = c as HTMLCanvasElement;
    const [L, T, W, H] = el.dataset.plot!.split(',').map(Number);
    const [sx, sy, ox, oy] = el.dataset.view!.split(',').map(Number);
    const r = el.getBoundingClientRect();
    return { L, T, W, H, sx, sy, ox, oy, left: r.left, top: r.top };
  });
}

async function tooltipAt(page: Page, g: Geometry, i: number, j: number): Promise<string> {
  await page.mouse.move(5, 5);
  await page.mouse.move(g.left + g.L + (j - g.ox + 0.5) * g.sx, g.top + g.T + (i - g.oy + 0.5) * g.sy);
  await page.waitForSelector('.cl-heatmap .cl-tooltip:not([hidden])');
  return (await page.textContent('.cl-heatmap .cl-tooltip'))!;
}

describe('panel in quaternion coordinates (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let fx: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    fx = fixtureFromText('msd-turned.scene.json', TEXT, 0);
  });
  after(async () => {
    await close?.();
  });

  test('J: 7 labelled columns (x … qz), the unit-quaternion row, tooltips naming both; M⁻¹ as msd-sim builds it', async () => {
    const snap = fx.model.snapshot;
    assert.deepEqual(snap.columnLabels, ['Cube.x', 'Cube.y', 'Cube.z', 'Cube.qw', 'Cube.qx', 'Cube.qy', 'Cube.qz']);
    const p = await openPanel(browser, fx, { theme: 'light' });
    const page = p.page;
    assert.match((await page.textContent('.cl-subtitle'))!, /^quaternion coordinates \(msd-sim\) · b = −J·M⁻¹·F − α·C − β·Ċ · dt = 0\.016 s · 1 moving body, 2 constraints$/);
    const tab = page.locator('#cl-tab-J');
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    assert.match((await tab.getAttribute('title'))!, /2 rows × 7 position coordinates \(x y z qw qx qy qz per body\), J = ∂C\/∂q/);
    assert.match((await page.getAttribute('.cl-heatmap-canvas', 'aria-label'))!, /^J: 2 × 7 heatmap/);
    // fitted: the 7 columns and both rows in view
    const g = await geometry(page);
    assert.ok(g.ox <= 0 && g.L + (7 - g.ox) * g.sx <= g.L + g.W + 1e-6 && g.oy <= 0, `all 7 columns in view (${g.W} px for ${g.sx} px cells from ${g.ox})`);
    // every column of the unit-quaternion row: its label, the row's label and J's value 2·Q (the quaternion columns)
    const q = [0.3, -0.2, 0.4, Math.sqrt(1 - 0.09 - 0.04 - 0.16)];
    const want = [0, 0, 0, 2 * q[3], 2 * q[0], 2 * q[1], 2 * q[2]];
    for (let j = 0; j < 7; j++) {
      const tip = await tooltipAt(page, g, 0, j);
      assert.ok(tip.includes(snap.columnLabels[j]), `tooltip "${tip}" names column ${snap.columnLabels[j]}`);
      assert.ok(tip.includes('Cube.QᵀQ−1'), `tooltip "${tip}" names the unit-quaternion row`);
      if (want[j] === 0) assert.ok(tip.includes('structural zero'), tip);
      else assert.ok(tip.includes(String(want[j]).slice(0, 8)), `tooltip "${tip}" shows ${want[j]}`);
    }
    // the distance row: 2X on x, y, z
    assert.ok((await tooltipAt(page, g, 1, 0)).includes('tether.|Δ|²−d²'));
    await page.mouse.move(5, 5);
    await settle(page);
    await page.screenshot({ path: shotPath('msd-quaternion-J-light'), clip: { x: 0, y: 0, width: 1400, height: 760 } });
    // M⁻¹: one 7×7 block, described as msd-sim's
    await page.click('#cl-tab-Minv');
    await settle(page);
    assert.match((await page.locator('#cl-tab-Minv').getAttribute('title'))!, /as msd-sim builds it: one 7×7 block per body, 7 × 7/);
    assert.match((await page.getAttribute('.cl-heatmap-canvas', 'aria-label'))!, /^M⁻¹: 7 × 7 heatmap/);
    await page.screenshot({ path: shotPath('msd-quaternion-Minv-light'), clip: { x: 0, y: 0, width: 1400, height: 760 } });
    await page.context().close();
  });
});
