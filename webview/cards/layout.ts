// The panel's page: header, banner, the two columns of cards, the history and the footer.
import { clear, h } from '../dom';
import { createBanner } from './banner';
import type { Store } from '../store';
import type { CardContext } from './card';
import { createContactsCard } from './contacts';
import { createJointRowsCard } from './jointRows';
import { createForcesCard } from './forces';
import { createHeader } from './header';
import { createHistoryCard } from './history';
import { createMatricesCard } from './matrices';
import { createMujocoCard } from './mujoco';
import { createNewtonCard } from './newton';
import { createPgsCard } from './pgs';
import { createProblemsCard } from './problems';
import { createRedundancyCard } from './redundancy';
import { createSceneCard } from './scene';
import { createSpectrumCard } from './spectrum';
import { createTraceCard } from './trace';
import { createWBlocksCard } from './wblocks';

/**
 * Builds every card, attaches the page, then lets the cards render (they measure their size).
 * The first frame shows the header, the banner and the matrices (the scene and history cards
 * render their frames and build their views after it, see defer.ts); the other cards render in
 * the task right after that frame, so the first paint does not wait for them.
 */
export function mountPanel(root: HTMLElement, context: CardContext): void {
  const { store, started } = deferWatches(context.store);
  const later = deferWatches(context.store);
  const ctx: CardContext = { ...context, store };
  const ctxLater: CardContext = { ...context, store: later.store };
  clear(root);
  const header = createHeader(ctx);
  const banner = createBanner(ctx, root);
  const main = h(
    'main',
    { class: 'cl-main' },
    h('div', { class: 'cl-col cl-col-main' }, createMatricesCard(ctx), createWBlocksCard(ctxLater), createContactsCard(ctxLater), createJointRowsCard(ctxLater), createNewtonCard(ctxLater), createForcesCard(ctxLater), createMujocoCard(ctxLater)),
    h('div', { class: 'cl-col cl-col-side' }, createTraceCard(ctx), createSceneCard(ctx), createPgsCard(ctxLater), createRedundancyCard(ctxLater), createSpectrumCard(ctxLater), createProblemsCard(ctxLater)),
  );
  const footer = h('footer', { class: 'cl-footer' });
  if (ctx.report) {
    ctx.store.watch(
      (s) => [s.model, s.history.length] as const,
      ([m, n]) => {
        if (m) footer.textContent = `Constraint Lens report${m.generator ? ` · ${m.generator}` : ''} · ${n} steps recorded · matrices embedded for ${m.snapshots?.length ?? 1} step(s)`;
      },
    );
  }
  root.append(header, banner, main, createHistoryCard(ctx), footer);
  started();
  // A hidden page paints no frame: there the other cards render at once.
  if (document.visibilityState === 'hidden') later.started();
  else requestAnimationFrame(() => setTimeout(later.started, 0));
}

/** A view of the store whose `watch` registrations wait until `started()`. */
function deferWatches(store: Store): { store: Store; started: () => void } {
  let queue: (() => void)[] | undefined = [];
  return {
    store: {
      getState: store.getState,
      dispatch: store.dispatch,
      watch(selector, listener, opts) {
        let stop: (() => void) | undefined;
        let cancelled = false;
        const start = (): void => {
          if (!cancelled) stop = store.watch(selector, listener, opts);
        };
        if (queue) queue.push(start);
        else start();
        return () => {
          cancelled = true;
          stop?.();
        };
      },
    },
    started() {
      const q = queue ?? [];
      queue = undefined;
      for (const start of q) start();
    },
  };
}
