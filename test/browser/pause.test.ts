// Pause on the step the user reads: run updates applied in one task before any frame (a busy
// page under load, with the click queued behind them) must not move the header's step ahead of
// the step Pause names. The cards render one state per animation frame (webview/frame.ts), so
// the header's text, the 3D pose, the charts' cursor and Pause's step are the same step. The
// button and Space behave the same.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { encodeForJson, type HostMessage } from '../../src/protocol';
import { encodeHistory } from '../../src/shared/history';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, launch, openPanel, settle, type PanelPage } from './harness';

requireChromium();

/**
 * Applies `texts` (host messages as JSON) in one task, reads the header's step, then presses Pause
 * (button or Space) in the same task. A string: tsx would wrap nested functions in a `__name`
 * helper the page lacks.
 */
const BURST_THEN_PAUSE = `({ texts, how }) => {
  const read = () => document.querySelector('[data-stat="step"] .cl-stat-value')?.textContent ?? '';
  for (const data of texts) window.dispatchEvent(new MessageEvent('message', { data }));
  const header = read();
  if (how === 'button') document.querySelector('[data-command="playPause"]').click();
  else document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }));
  return { header, after: read() };
}`;

const shownOf = (text: string): number => Number(/^(\d+)/.exec(text)?.[1] ?? NaN);

describe('Pause lands on the step the header shows', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let fixture: Fixture;
  let p: PanelPage;

  before(async () => {
    ({ browser, close } = await launch());
    fixture = buildFixture('double-pendulum', 120);
    p = await openPanel(browser, fixture, { theme: 'dark' });
  });
  after(async () => {
    await close();
  });

  for (const how of ['button', 'space'] as const) {
    test(`${how}: updates applied before the frame do not reach the header; Pause names its step`, async () => {
      const records = fixture.model.history;
      const n = records.length;
      // a run playing from step n - 30, which the panel follows from its end
      await p.send({ type: 'historyReset', length: n - 30 });
      await p.send({ type: 'running', running: true });
      await p.page.waitForFunction((k) => document.body.dataset.clStep === String(k), n - 30);
      await settle(p.page);
      await p.page.locator('#cl-history').click({ position: { x: 5, y: 5 } }); // the page has the focus, not a control
      const start = p.posted.length;
      // three updates of the run (to n - 20, n - 10, n) in the task that handles the click
      const update = (from: number, to: number): HostMessage => ({ type: 'historyAppend', chunk: encodeHistory(records, from, to), total: to, snapshot: fixture.snapshotAt(to) });
      const texts = [update(n - 30, n - 20), update(n - 20, n - 10), update(n - 10, n)].map((m) => encodeForJson(m));
      const r = (await p.page.evaluate(`(${BURST_THEN_PAUSE})(${JSON.stringify({ texts, how })})`)) as { header: string; after: string };
      const sent = await p.waitForPost((m) => m.type === 'command' && m.command === 'playPause' && p.posted.indexOf(m) >= start);
      assert.ok(sent.type === 'command');
      assert.equal(sent.step, shownOf(r.header), `Pause names the step the header showed (${r.header})`);
      assert.equal(shownOf(r.after), shownOf(r.header), 'the click changed nothing the header showed');
      await p.send({ type: 'running', running: false });
      await settle(p.page);
      const dom = await p.page.evaluate(() => ({ step: document.body.dataset.clStep, header: document.querySelector('[data-stat="step"] .cl-stat-value')?.textContent ?? '' }));
      assert.equal(dom.step, String(sent.step), 'the panel stays on the paused step');
      assert.equal(shownOf(dom.header), sent.step);
      assert.match(dom.header, new RegExp(`/ ${n}\\b`), 'the run’s end moved on behind it');
      assert.deepEqual(p.invalidPosts, []);
      assert.deepEqual(p.consoleErrors, []);
    });
  }
});
