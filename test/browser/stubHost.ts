// The stub host of the browser tests and of bench:ui, answering the panel as the extension does
// (src/extension/panel.ts): `ready` connects the extension's own PanelFeed
// (src/extension/logic/panelFeed.ts), which posts the model WITHOUT its history (`steps` says how
// long the run is) and then streams the run's records in `historyAppend` messages, one
// flow-controlled message in flight until the panel acknowledges it; `requestSnapshot` goes
// through the feed too, `ack` releases the slot. So a first paint here is the first paint of a
// VS Code user: the model the extension posts, not a model with its whole run.
import { PanelFeed } from '../../src/extension/logic/panelFeed';
import type { HostMessage, PanelModel, WebviewMessage } from '../../src/protocol';
import type { Fixture } from './fixtures';

/** The model as a live panel gets it: no records (they are streamed after it), `steps` kept. */
export function liveModel(model: PanelModel): PanelModel {
  return { ...model, history: [], steps: model.steps ?? model.history.length };
}

export interface StubHost {
  readonly feed: PanelFeed;
  /** A validated message from the panel. */
  receive(m: WebviewMessage): void;
  /** Resolves once the panel has everything (model, records, replies) and acknowledged it. */
  idle(timeoutMs?: number): Promise<void>;
  dispose(): void;
}

/**
 * `post` delivers one host message to the page (false, or a promise of false: not delivered, the
 * feed then waits for the next `ready`, as with a hidden webview). `snapshotDelayMs`: the host
 * takes that long to make a snapshot (a slow worker).
 */
export function createStubHost(fixture: Fixture, post: (m: HostMessage) => boolean | Promise<boolean>, opts: { snapshotDelayMs?: number } = {}): StubHost {
  const records = fixture.model.history;
  const feed = new PanelFeed(post, {
    model: () => ({ message: { type: 'model', model: liveModel(fixture.model) } }),
    records: () => records,
    snapshot: (k) => {
      const delay = opts.snapshotDelayMs;
      if (!delay) return fixture.snapshotAt(k);
      return new Promise((resolve) => setTimeout(() => resolve(fixture.snapshotAt(k)), delay));
    },
  });
  return {
    feed,
    receive(m) {
      if (m.type === 'ready') feed.connect();
      else if (m.type === 'ack') feed.ack(m.seq, m.ms);
      else if (m.type === 'requestSnapshot') feed.request(m.step);
    },
    async idle(timeoutMs = 30_000) {
      const t0 = Date.now();
      while (!feed.idle) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`the stub host's feed did not settle within ${timeoutMs} ms (stats ${JSON.stringify(feed.stats)})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    dispose: () => feed.dispose(),
  };
}
