// The host's feed of one inspector panel (src/extension/logic/panelFeed.ts): one message in flight
// until acknowledged, updates coalesced meanwhile, at most 10 history messages and 10 snapshots a
// second during a run, the end at once when it settles, and what the panel assembles equals the run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage, PanelModel, StepRecord, SystemSnapshot } from '../../src/protocol';
import { PanelFeed, type FeedModel } from '../../src/extension/logic/panelFeed';
import { appendHistory, emptyHistory, recordAt, truncateHistory, type History } from '../../webview/history';
import { chunkBytes, normalizeChunk } from '../../src/shared/history';
import { FakeClock } from './fakeClock';

function record(k: number): StepRecord {
  return {
    step: k + 1,
    t: (k + 1) * 0.01,
    C: [k * 1e-6, -k],
    lambda: [k, 2 * k, 3 * k],
    cond: { A: k % 50 === 7 ? null : 10 + k },
    condEstimated: k % 2 === 0,
    energy: { kinetic: k, potential: -k, total: 0 },
    quatDrift: 1e-12 * k,
    method: k % 3 === 0 ? 'cholesky' : 'lu',
    poses: [k, 0, 0, 0, 0, 0, 1],
  };
}

/** A host: a run (records), a model, snapshots; a panel that applies what it gets and acks when told. */
function rig(opts: { ack: 'never' | 'sync' | 'manual'; ackDelayMs?: number | ((m: HostMessage) => number); panelMs?: number; undelivered?: boolean; maxChunkBytes?: number; asyncSnapshots?: boolean }) {
  const clock = new FakeClock();
  const records: StepRecord[] = [];
  const posted: HostMessage[] = [];
  let history: History = emptyHistory();
  let total = 0;
  const shown: number[] = [];
  let pushedAhead = 0;
  const model = (): FeedModel => ({
    message: { type: 'model', model: { sceneName: 's', fileName: 's.scene.json', snapshot: { step: records.length } as SystemSnapshot, history: [], steps: records.length, plannedSteps: 10, dt: 0.01, diagnostics: [], sceneBodies: [] } satisfies PanelModel },
  });
  const apply = (m: HostMessage): void => {
    if (m.type === 'model') {
      history = emptyHistory();
      total = m.model.steps ?? 0;
    } else if (m.type === 'historyAppend') {
      const next = appendHistory(history, normalizeChunk(m.chunk));
      assert.equal(m.chunk.from, history.length, 'appends start where the panel is');
      history = next;
      total = m.total;
      if (m.snapshot) {
        shown.push(m.snapshot.step);
        if (m.snapshot.step > history.length) pushedAhead++;
      }
    } else if (m.type === 'historyReset') {
      history = truncateHistory(history, m.length);
      total = m.length;
    } else if (m.type === 'snapshot') {
      assert.ok(m.snapshot.step <= total, 'a snapshot of a step the panel knows of');
      shown.push(m.snapshot.step);
      if (m.snapshot.step > history.length) pushedAhead++;
    }
  };
  const feed: PanelFeed = new PanelFeed(
    (m) => {
      if (opts.undelivered) return Promise.resolve(false);
      posted.push(m);
      apply(m);
      if (opts.ack === 'sync' && seqOf(m) >= 0) {
        const seq = seqOf(m);
        const delay = typeof opts.ackDelayMs === 'function' ? opts.ackDelayMs(m) : (opts.ackDelayMs ?? 2);
        clock.setTimeout(() => feed.ack(seq, opts.panelMs), delay); // the panel's time to apply and paint (or, with panelMs, the transport's round trip)
      }
      return true;
    },
    {
      model,
      records: () => records,
      snapshot: (k) => {
        const snap = { step: k } as SystemSnapshot;
        return opts.asyncSnapshots ? Promise.resolve(snap) : snap;
      },
    },
    { timers: clock, maxChunkBytes: opts.maxChunkBytes },
  );
  return {
    clock,
    records,
    posted,
    feed,
    shown,
    get history() {
      return history;
    },
    get total() {
      return total;
    },
    get pushedAhead() {
      return pushedAhead;
    },
    /** Play: `perTick` steps every 16 ms for `ms`, telling the feed after each tick. */
    play(ms: number, perTick: number) {
      const end = clock.t + ms;
      while (clock.t < end) {
        for (let i = 0; i < perTick; i++) records.push(record(records.length));
        feed.stepped(false);
        clock.advance(16);
      }
    },
  };
}

const types = (ms: HostMessage[]): string[] => ms.map((m) => m.type);
/** The flow-control sequence number of a posted message (-1: none). */
const seqOf = (m: HostMessage | undefined): number => (m && 'seq' in m && m.seq !== undefined ? m.seq : -1);

describe('panel feed', () => {
  test('a panel that never acknowledges gets one message, however long the run', () => {
    const r = rig({ ack: 'never' });
    r.feed.connect();
    r.play(60_000, 16); // one minute of Play at 1000 steps/s
    r.feed.request(5);
    r.feed.stepped(true);
    r.clock.advance(10_000);
    assert.equal(r.records.length, 60_000);
    assert.deepEqual(types(r.posted), ['model']);
    assert.equal(r.feed.stats.posted, 1);
    assert.equal(r.feed.waiting, true);
    assert.equal(r.clock.pending, 0, 'no timer keeps re-arming while it waits');
  });

  test('an acknowledging panel: ≤ 10 history messages and ≤ 10 snapshots a second, the end at once, the run assembled exactly', () => {
    const r = rig({ ack: 'sync' });
    r.feed.connect();
    r.clock.advance(5);
    const t0 = r.clock.t;
    r.play(10_000, 16);
    const during = r.posted.slice(1);
    const seconds = (r.clock.t - t0) / 1000;
    const hist = during.filter((m) => m.type === 'historyAppend').length;
    const snaps = during.filter((m) => m.type === 'snapshot' || (m.type === 'historyAppend' && m.snapshot)).length;
    assert.ok(hist <= 10 * seconds + 1 && hist >= 8 * seconds, `${hist} history messages in ${seconds} s`);
    assert.ok(snaps <= 10 * seconds + 1 && snaps >= 8 * seconds, `${snaps} snapshots in ${seconds} s`);
    assert.ok(
      during.every((m) => m.type === 'historyAppend'),
      'the current step’s snapshot travels with the records (one message, one round trip)',
    );
    assert.equal(r.feed.stats.maxInFlight, 1);
    // The run settles: its end goes now, not after the interval.
    for (let i = 0; i < 5; i++) r.records.push(record(r.records.length));
    const n = r.posted.length;
    r.feed.stepped(true);
    r.clock.advance(10);
    assert.deepEqual(types(r.posted.slice(n)), ['historyAppend']);
    const end = r.posted.at(-1);
    assert.equal(end?.type === 'historyAppend' && end.snapshot?.step, r.records.length, 'the end’s records and its snapshot in one message');
    assert.equal(r.shown.at(-1), r.records.length, 'the final step’s snapshot');
    assert.ok(r.pushedAhead === 0, 'no pushed snapshot ran ahead of the records the panel had');
    assert.equal(r.history.length, r.records.length);
    assert.equal(r.total, r.records.length);
    for (const k of [0, 7, 57, 9_999, r.records.length - 1]) assert.deepEqual(recordAt(r.history, k), r.records[k], `record ${k}`);
    assert.equal(r.feed.stats.historyRecords, r.records.length, 'every record sent once');
    // Nothing more to say: no message, no timer.
    const m = r.posted.length;
    r.clock.advance(1000);
    assert.equal(r.posted.length, m);
    assert.equal(r.clock.pending, 0);
  });

  test('a slow panel gets fewer updates: at least four times its acknowledgement time apart', () => {
    const r = rig({ ack: 'sync', ackDelayMs: 60 }); // the panel takes 60 ms for each message
    r.feed.connect();
    r.clock.advance(100);
    const n0 = r.posted.length;
    r.play(10_000, 16);
    const updates = r.posted.length - n0;
    assert.ok(updates <= 10_000 / 240 + 2 && updates >= 10_000 / 300 - 2, `${updates} updates in 10 s for a panel that takes 60 ms each`);
    assert.ok(r.records.length - r.history.length < 16 * 20, 'the panel is at most one update behind');
    assert.deepEqual(recordAt(r.history, r.history.length - 1), r.records[r.history.length - 1], 'coalesced, not lost');
  });

  test('a slow transport does not count as a slow panel: 200 ms round trips for 2 ms of the panel\'s work give about five updates a second, not one', () => {
    // code-server: the acknowledgement comes back 150-230 ms after the update went, the panel
    // having spent 1-2 ms on it. Pacing by the round trip (×4) gave an update every 0.8 s.
    const r = rig({ ack: 'sync', ackDelayMs: 200, panelMs: 2 });
    r.feed.connect();
    r.clock.advance(300);
    const n0 = r.posted.length;
    r.play(10_000, 16);
    const updates = r.posted.length - n0;
    assert.ok(updates >= 10_000 / 232 - 2 && updates <= 10_000 / 200 + 2, `${updates} updates in 10 s at a 200 ms round trip`);
    // and still one message in flight: the host never runs ahead of the panel
    assert.ok(r.feed.stats.maxInFlight <= 1, `${r.feed.stats.maxInFlight} in flight`);
    // the same transport without the panel's own time: paced by the whole round trip, as before
    const old = rig({ ack: 'sync', ackDelayMs: 200 });
    old.feed.connect();
    old.clock.advance(300);
    const m0 = old.posted.length;
    old.play(10_000, 16);
    assert.ok(old.posted.length - m0 <= 10_000 / 800 + 2, `${old.posted.length - m0} updates when the round trip counts`);
  });

  test('Play after a long Run: its first update goes at once, however long the panel took over the run’s end; the model does not pace the run', () => {
    // The panel takes 3 s over the model and 1.5 s over the end of a 20 000-step run (a long
    // history drawn at once), 20 ms over an ordinary update.
    let slow = 0;
    const r = rig({ ack: 'sync', ackDelayMs: (m) => (m.type === 'model' ? 3000 : slow || 20) });
    r.feed.connect();
    r.clock.advance(3100);
    // Run 20 000: records come in bursts; its end (settled) is slow to draw.
    r.play(500, 320);
    while (r.records.length < 20_000) r.records.push(record(r.records.length));
    slow = 1500;
    r.feed.stepped(true);
    r.clock.advance(2000);
    slow = 0;
    assert.equal(r.history.length, 20_000, 'the run’s end is there');
    // Play, a second later: 16 steps a tick.
    r.clock.advance(1000);
    const n = r.posted.length;
    const t0 = r.clock.t;
    let firstAt = -1;
    while (r.clock.t < t0 + 3000 && firstAt < 0) {
      for (let i = 0; i < 16; i++) r.records.push(record(r.records.length));
      r.feed.stepped(false);
      r.clock.advance(16);
      if (r.posted.length > n) firstAt = r.clock.t - t0;
    }
    assert.ok(firstAt >= 0 && firstAt <= 32, `Play's first update after ${firstAt} ms`);
    // and the run's updates then come at the pace of its own (fast) updates: ≥ 8 a second
    const m = r.posted.length;
    r.play(2000, 16);
    assert.ok(r.posted.length - m >= 16, `${r.posted.length - m} updates in 2 s`);
  });

  test('a very slow panel still gets an update every second or so while the run goes on', () => {
    const r = rig({ ack: 'sync', ackDelayMs: 700 });
    r.feed.connect();
    r.clock.advance(800);
    const n0 = r.posted.length;
    r.play(17_000, 16);
    const updates = r.posted.length - n0;
    assert.ok(updates >= 16 && updates <= 19, `${updates} updates in 17 s for a panel that takes 700 ms each`);
  });

  test('a long history goes in bounded chunks after the model; a requested snapshot comes first, then the rest', () => {
    const r = rig({ ack: 'manual', maxChunkBytes: 64 * 1024 });
    for (let i = 0; i < 20_000; i++) r.records.push(record(i));
    r.feed.connect();
    r.feed.request(3);
    const ackLast = (): void => {
      const seq = seqOf(r.posted.at(-1));
      r.feed.ack(seq);
    };
    assert.deepEqual(types(r.posted), ['model']);
    assert.equal(r.total, 20_000, 'the model says how long the run is');
    ackLast();
    assert.deepEqual(types(r.posted), ['model', 'snapshot'], 'the request goes before the history');
    for (let i = 0; i < 200 && r.history.length < 20_000; i++) {
      ackLast();
      r.clock.advance(1);
    }
    const chunks = r.posted.filter((m) => m.type === 'historyAppend');
    assert.ok(chunks.length > 1);
    for (const c of chunks) if (c.type === 'historyAppend') assert.ok(chunkBytes(c.chunk) <= 64 * 1024, 'each message within the byte budget');
    assert.equal(r.history.length, 20_000);
    assert.deepEqual(recordAt(r.history, 19_999), r.records[19_999]);
    // A stale acknowledgement does nothing.
    const before = r.posted.length;
    r.feed.ack(1);
    assert.equal(r.posted.length, before);
  });

  test('the host moves the panel to a step past the records it has (a Step from the CodeLens): the records first, then that step, pushed once', () => {
    const r = rig({ ack: 'sync' });
    for (let i = 0; i < 3; i++) r.records.push(record(i));
    r.feed.connect();
    r.clock.advance(50);
    assert.equal(r.total, 3);
    // the step is taken and the host moves the panel to it before the feed heard of the step
    r.records.push(record(3));
    const n = r.posted.length;
    r.feed.request(4, true);
    r.feed.stepped(true);
    r.clock.advance(50);
    const after = r.posted.slice(n);
    assert.deepEqual(types(after), ['historyAppend', 'snapshot'], 'the records, then the step');
    const [hist, snap] = after;
    assert.ok(hist.type === 'historyAppend' && hist.snapshot === undefined && hist.total === 4, 'the records alone (the snapshot goes with goTo)');
    assert.ok(snap.type === 'snapshot' && snap.goTo === true && snap.snapshot.step === 4, 'step 4, as a step the panel goes to');
    assert.equal(r.pushedAhead, 0, 'no snapshot of a step the panel had no record of');
    assert.deepEqual(r.shown, [4], 'step 4 sent once');
    assert.equal(r.clock.pending, 0);
  });

  test('a step the host meant to move the panel to, still waiting when a run starts, is dropped (the run is followed from its end)', () => {
    const r = rig({ ack: 'manual' });
    for (let i = 0; i < 20; i++) r.records.push(record(i));
    r.feed.connect();
    r.feed.request(5, true); // Go to Step while the model is in flight
    r.feed.runStarted(); // Play
    r.feed.ack(seqOf(r.posted.at(-1)));
    r.clock.advance(10);
    assert.ok(!r.posted.some((m) => m.type === 'snapshot' && m.goTo), 'no goTo after the run started');
    // a reply to the panel's own request is not dropped
    r.feed.request(7);
    r.feed.runStarted();
    assert.ok(r.posted.some((m) => m.type === 'snapshot' && m.snapshot.step === 7));
  });

  test('idle: only once the model, every record and each requested snapshot were sent and acknowledged', () => {
    const r = rig({ ack: 'manual', maxChunkBytes: 4 * 1024 });
    for (let i = 0; i < 500; i++) r.records.push(record(i));
    assert.equal(r.feed.idle, false, 'not connected');
    r.feed.connect();
    const ackLast = (): void => r.feed.ack(seqOf(r.posted.at(-1)));
    const states: boolean[] = [r.feed.idle];
    for (let i = 0; i < 100 && r.history.length < 500; i++) {
      ackLast();
      states.push(r.feed.idle);
      r.clock.advance(200);
    }
    assert.equal(r.history.length, 500);
    assert.ok(!states.slice(0, -1).some((x) => x), 'not idle while records are missing');
    assert.equal(r.feed.idle, false, 'the last chunk is not acknowledged yet');
    ackLast();
    assert.equal(r.feed.idle, true);
    r.feed.request(7);
    assert.equal(r.feed.idle, false, 'a snapshot in flight');
    ackLast();
    assert.equal(r.feed.idle, true);
    r.records.push(record(500));
    assert.equal(r.feed.idle, false, 'a record not sent yet');
  });

  test('reset: the model goes again after the message in flight; a shorter run without a new model is truncated', () => {
    const r = rig({ ack: 'manual' });
    r.feed.connect();
    const ack = (): void => r.feed.ack(seqOf(r.posted.at(-1)));
    ack();
    for (let i = 0; i < 50; i++) r.records.push(record(i));
    r.feed.stepped(true);
    assert.equal(r.posted.at(-1)!.type, 'historyAppend');
    // Reset while the append is in flight: nothing more goes until its ack, then the model.
    r.records.length = 0;
    r.feed.modelChanged();
    assert.equal(r.posted.at(-1)!.type, 'historyAppend');
    ack();
    assert.equal(r.posted.at(-1)!.type, 'model');
    assert.equal(r.history.length, 0);
    ack();
    // The run shrinks without a new model (a simulation replaced): the panel is told to truncate.
    for (let i = 0; i < 20; i++) r.records.push(record(i));
    r.feed.stepped(true);
    ack(); // history
    ack(); // snapshot
    r.records.length = 5;
    r.feed.stepped(true);
    assert.deepEqual(r.posted.at(-1), { type: 'historyReset', length: 5, seq: seqOf(r.posted.at(-1)) });
    assert.equal(r.history.length, 5);
  });

  test('while the scene has no simulation (its text changed) the panel keeps its run; requests are still answered', () => {
    const clock = new FakeClock();
    const posted: HostMessage[] = [];
    const records = Array.from({ length: 10 }, (_, k) => record(k));
    let gone = false;
    const model: FeedModel = { message: { type: 'model', model: { sceneName: 's', fileName: 's.scene.json', snapshot: { step: 10 } as SystemSnapshot, history: [], steps: 10, plannedSteps: 10, dt: 0.01, diagnostics: [], sceneBodies: [] } } };
    const feed = new PanelFeed((m) => (posted.push(m), true), { model: () => model, records: () => (gone ? undefined : records), snapshot: (k) => ({ step: k }) as SystemSnapshot }, { timers: clock });
    feed.connect();
    feed.ack(seqOf(posted.at(-1)));
    clock.advance(200);
    feed.ack(seqOf(posted.at(-1)));
    assert.deepEqual(types(posted), ['model', 'historyAppend']);
    gone = true; // edited: the simulation is dropped until the new analysis
    feed.stepped(true);
    clock.advance(200);
    assert.deepEqual(types(posted), ['model', 'historyAppend'], 'no historyReset: the panel keeps its run');
    feed.request(4);
    assert.deepEqual(types(posted), ['model', 'historyAppend', 'snapshot'], 'a request is still answered');
  });

  test('snapshots made asynchronously (worker) hold the slot; one made for a replaced run is dropped', async () => {
    const r = rig({ ack: 'manual', asyncSnapshots: true });
    r.feed.connect();
    r.feed.ack(seqOf(r.posted.at(-1)));
    r.feed.request(0, true);
    r.feed.stepped(true); // wants to send too, but the snapshot holds the slot
    assert.deepEqual(types(r.posted), ['model']);
    await Promise.resolve();
    assert.deepEqual(types(r.posted), ['model', 'snapshot']);
    assert.equal((r.posted[1] as { goTo?: boolean }).goTo, true);
    r.feed.ack(seqOf(r.posted[1]));
    // A request, then the model changes before the snapshot is made: the snapshot is not sent.
    r.feed.request(0);
    r.feed.modelChanged();
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(types(r.posted), ['model', 'snapshot', 'model']);
  });

  test('a webview that is gone (message not delivered) gets nothing until it says ready again', async () => {
    const r = rig({ ack: 'sync', undelivered: true });
    r.feed.connect();
    await Promise.resolve();
    r.play(1000, 16);
    assert.equal(r.posted.length, 0);
    assert.equal(r.feed.waiting, false, 'the slot is free again');
    assert.equal(r.clock.pending, 0, 'and nothing retries');
  });
});
