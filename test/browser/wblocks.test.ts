// The W blocks card in headless Chromium: Solfec's W as a grid of blocks W_αβ per pair of local
// frames (webview/cards/wblocks.ts), beside the scalar heatmap; hover names the frames, the shared
// body and the sign s_αβ. Screenshot: test-results/screenshots/wblocks-<theme>.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { buildFixture, fixtureFromText, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath } from './harness';

requireChromium();

// world —ball— a —hinge— b —distance— c, and a ball from c back to a (test/unit/solfec-wblocks.test.ts)
const SCENE = {
  name: 'W blocks',
  solver: { dt: 0.01, steps: 20, formulation: 'velocity' },
  bodies: [
    { name: 'a', mass: 2, inertia: [0.1, 0.2, 0.3], position: [1, 0, 0] },
    { name: 'b', mass: 1, inertia: [0.05, 0.05, 0.08], position: [2, 0.1, 0] },
    { name: 'c', mass: 3, inertia: [0.3, 0.2, 0.2], position: [3, 0, 0.2] },
  ],
  constraints: [
    { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'a', anchorA: [0, 0, 0], anchorB: [-1, 0, 0] },
    { name: 'knee', type: 'hinge', bodyA: 'a', bodyB: 'b', anchorA: [0.5, 0, 0], anchorB: [-0.5, -0.1, 0], axisA: [0, 0, 1], axisB: [0, 0, 1] },
    { name: 'rod', type: 'distance', bodyA: 'b', bodyB: 'c', length: Math.hypot(1, 0.1, 0.2) },
    { name: 'tie', type: 'ball', bodyA: 'c', bodyB: 'a', anchorA: [-1, 0, -0.2], anchorB: [1, 0, 0] },
  ],
};

describe('W blocks card (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let fx: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    fx = fixtureFromText('wblocks.scene.json', JSON.stringify(SCENE), 20);
  });
  after(async () => {
    await close?.();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the grid: 5 frames, blocks where frames share a body, hover names frames, body and sign (${theme})`, async () => {
      const p = await openPanel(browser, fx, { theme });
      const page = p.page;
      await page.waitForSelector('#cl-wblocks:not([hidden]) svg', { timeout: 10000 });
      await settle(page);
      // 5×5 cells: pin and rod share no body (two empty cells), every other pair does
      assert.equal(await page.locator('#cl-wblocks .cl-wb-cell').count(), 23);
      assert.equal(await page.locator('#cl-wblocks .cl-wb-empty').count(), 2);
      assert.equal(await page.locator('#cl-wblocks .cl-wb-diag').count(), 5);
      const labels = await page.locator('#cl-wblocks .cl-wb-label').allTextContents();
      assert.deepEqual(labels.slice(0, 2), ['pin', 'pin']);
      assert.ok(labels.includes('knee[1]') && labels.includes('tie'), labels.join(' '));
      // beside the scalar view: the matrices card comes right before it
      assert.equal(await page.evaluate(() => document.querySelector('#cl-wblocks')?.previousElementSibling?.id), 'cl-matrices');
      // hover W(knee[0], rod): they share b, the slave of knee and the master of rod → s = −1
      const cell = page.locator('#cl-wblocks .cl-wb-cell[data-alpha="1"][data-beta="3"]');
      await cell.hover();
      const tip = page.locator('#cl-wblocks .cl-wb-tip');
      await tip.waitFor({ state: 'visible' });
      const text = await tip.textContent();
      assert.match(text!, /^W\(knee\[0\], rod\)/);
      assert.match(text!, /via b: slave in knee\[0\], master in rod → s = −1/);
      // two frames of one hinge share both bodies: two blocks, both +1
      await page.locator('#cl-wblocks .cl-wb-cell[data-alpha="1"][data-beta="2"]').hover();
      const both = await tip.textContent();
      assert.match(both!, /via a: master in knee\[0\], master in knee\[1\] → s = \+1/);
      assert.match(both!, /via b: slave in knee\[0\], slave in knee\[1\] → s = \+1/);
      await cell.hover();
      await settle(page);
      await page.locator('#cl-wblocks').screenshot({ path: shotPath(`wblocks-${theme}`) });
      assert.deepEqual(p.consoleErrors, []);
      await page.context().close();
    });
  }

  test('hidden in the acceleration formulation (no W)', async () => {
    const p = await openPanel(browser, buildFixture('chain', 10));
    await settle(p.page);
    assert.equal(await p.page.locator('#cl-wblocks').isHidden(), true);
    await p.page.context().close();
  });
});
