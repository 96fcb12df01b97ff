// The panel as the extension feeds it (stubHost.ts: the extension's own PanelFeed): the model
// arrives without its history, the panel paints from it at once, and the run's records streamed
// after it fill the history; a reload (a new `ready`) gets everything anew.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle } from './harness';

requireChromium();

/** Records, in the page, every host message as it arrives (before the panel handles it) and what was on the page then. */
const RECORDER = `(() => {
  const seen = (window.__clSeen = []);
  window.addEventListener('message', (e) => {
    const d = e.data;
    if (!d || typeof d !== 'object') return;
    const hm = document.querySelector('canvas[aria-roledescription="matrix heatmap"]');
    seen.push({
      type: d.type,
      history: d.type === 'model' ? d.model.history.length : undefined,
      steps: d.type === 'model' ? d.model.steps : undefined,
      from: d.type === 'historyAppend' ? d.chunk.from : undefined,
      count: d.type === 'historyAppend' ? d.chunk.count : undefined,
      title: (document.querySelector('h1') || {}).textContent || '',
      heatmap: !!hm && hm.width > 0,
    });
  }, true);
})();`;

interface Seen {
  type: string;
  history?: number;
  steps?: number;
  from?: number;
  count?: number;
  title: string;
  heatmap: boolean;
}

describe('the panel fed as by the extension (Chromium)', () => {
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

  test('paints from a model without history, then shows the streamed records; a reload gets both again', async () => {
    const p = await openPanel(browser, chain);
    const page = p.page;
    await page.addInitScript(RECORDER);
    for (let load = 0; load < 2; load++) {
      const before = p.posted.length;
      await page.reload();
      await page.waitForSelector('body[data-cl-ready="1"]', { state: 'attached' });
      await p.hostIdle();
      await settle(page);
      assert.equal(p.posted[before]?.type, 'ready', 'the reloaded page said ready');
      const seen = (await page.evaluate('window.__clSeen')) as Seen[];
      assert.equal(seen[0]?.type, 'model', `the model first: ${JSON.stringify(seen)}`);
      assert.equal(seen[0].history, 0, 'the model carries no records');
      assert.equal(seen[0].steps, 80, 'it says how long the run is');
      const appends = seen.filter((s) => s.type === 'historyAppend');
      assert.ok(appends.length >= 1);
      // the records follow in order, all of them, and the page was built from the model before the first arrived
      let next = 0;
      for (const a of appends) {
        assert.equal(a.from, next);
        next += a.count!;
      }
      assert.equal(next, 80);
      assert.match(appends[0].title, new RegExp(chain.model.sceneName), 'the header was there before the records');
      assert.ok(appends[0].heatmap, 'the heatmap was drawn before the records');
      // the history shows the streamed run
      assert.match((await page.textContent('[data-stat="step"]'))!, /80 \/ 80/);
      await page.waitForSelector('[data-chart="energy"][data-points]', { state: 'attached', timeout: 10_000 });
      const points = Number(await page.getAttribute('[data-chart="energy"]', 'data-points'));
      assert.ok(points >= 80, `energy chart: ${points} points`);
    }
    // every flow-controlled message was acknowledged once
    const acks = p.posted.filter((m) => m.type === 'ack').map((m) => (m as { seq: number }).seq);
    assert.equal(new Set(acks).size, acks.length, `acks ${acks.join(',')}`);
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });

  test('pagehide releases the WebGL context and the charts without errors; the next load paints as before', async () => {
    const p = await openPanel(browser, chain);
    const page = p.page;
    await page.waitForSelector('.cl3d canvas', { state: 'attached', timeout: 10_000 });
    await page.waitForSelector('[data-chart="energy"][data-points]', { state: 'attached', timeout: 10_000 });
    const before = (await page.evaluate(`(() => {
      const c = document.querySelector('.cl3d canvas');
      window.__clGl = c.getContext('webgl2') || c.getContext('webgl');
      return { lost: window.__clGl.isContextLost(), views: document.querySelectorAll('.cl3d').length };
    })()`)) as { lost: boolean; views: number };
    assert.deepEqual(before, { lost: false, views: 1 });
    // what the browser fires when the page goes away (not kept in the back/forward cache)
    const after = (await page.evaluate(`(() => {
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
      return { lost: window.__clGl.isContextLost(), views: document.querySelectorAll('.cl3d').length, released: Number(document.body.dataset.clReleased) };
    })()`)) as { lost: boolean; views: number; released: number };
    assert.equal(after.lost, true, 'the WebGL context is released');
    assert.equal(after.views, 0, 'the 3D view is gone');
    // the 3D view, the history card's charts, the λ chart and the spectrum at least
    assert.ok(after.released >= 4, `${after.released} parts released`);
    // a page kept in the back/forward cache keeps everything
    await page.reload();
    await page.waitForSelector('body[data-cl-ready="1"]', { state: 'attached' });
    await p.hostIdle();
    await page.waitForSelector('.cl3d canvas', { state: 'attached', timeout: 10_000 });
    const kept = (await page.evaluate(`(() => {
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
      return document.querySelectorAll('.cl3d').length;
    })()`)) as number;
    assert.equal(kept, 1);
    // real navigations away from a fully built panel, and back: no errors, the panel paints again
    await page.goto('about:blank');
    await page.goBack();
    await page.waitForSelector('body[data-cl-ready="1"]', { state: 'attached' });
    await p.hostIdle();
    assert.match((await page.textContent('[data-stat="step"]'))!, /80 \/ 80/);
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });
});
