// The panel's host transport end to end in headless Chromium: a snapshot request that the host
// answers too late stops showing "loading" at its timeout, and the late answer is still used.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel } from './harness';

requireChromium();

describe('panel transport (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let chain: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    chain = buildFixture('chain', 80);
  });
  after(async () => {
    await close?.();
  });

  test('"loading" ends with the request: at its 4 s timeout, and a late snapshot still lands', async () => {
    const p = await openPanel(browser, chain, { snapshotDelayMs: 6500 });
    const page = p.page;
    const note = async (): Promise<string> => (await page.$eval('.cl-step-note', (e) => (e.classList.contains('cl-visible') ? e.textContent : ''))) ?? '';
    await page.$eval('#cl-step-slider', (el) => {
      (el as HTMLInputElement).value = '1';
      el.dispatchEvent(new Event('input'));
    });
    await p.waitForPost((m) => m.type === 'requestSnapshot' && m.step === 1);
    const t0 = Date.now();
    assert.equal(await note(), 'loading matrices…');
    await page.waitForFunction(() => document.querySelector('.cl-step-note')?.textContent === 'matrices from step 80', undefined, { timeout: 6000 });
    const waited = Date.now() - t0;
    assert.ok(waited > 3000 && waited < 6000, `loading cleared after ${waited} ms (timeout 4000 ms)`);
    assert.deepEqual(
      p.posted.filter((m) => m.type === 'requestSnapshot'),
      [{ type: 'requestSnapshot', step: 1 }],
      'one request, no retry loop',
    );
    // The host's answer arrives after the timeout: the step on screen gets its matrices.
    await page.waitForFunction(() => !document.querySelector('.cl-step-note')?.classList.contains('cl-visible'), undefined, { timeout: 8000 });
    assert.match((await page.textContent('[data-stat="step"]'))!, /1 \/ 80/);
    assert.match((await page.textContent('#cl-forces .cl-desc'))!, /at step 1\./, 'the matrices and forces are those of step 1');
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });
});
