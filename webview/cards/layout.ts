// The panel's page: header, banner, the two columns of cards, the history and the footer.
import { clear, h } from '../dom';
import { createBanner } from './banner';
import type { Store } from '../store';
import type { CardContext } from './card';
import { createContactsCard } from './contacts';
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

/** Builds every card, attaches the page, then lets the cards render (they measure their size). */
export function mountPanel(root: HTMLElement, context: CardContext): void {
  const { store, started } = deferWatches(context.store);
  const ctx: CardContext = { ...context, store };
  clear(root);
  const header = createHeader(ctx);
  const banner = createBanner(ctx, root);
  const main = h(
    'main',
    { class: 'cl-main' },
    h('div', { class: 'cl-col cl-col-main' }, createMatricesCard(ctx), createContactsCard(ctx), createNewtonCard(ctx), createForcesCard(ctx), createMujocoCard(ctx)),
    h('div', { class: 'cl-col cl-col-side' }, createSceneCard(ctx), createPgsCard(ctx), createRedundancyCard(ctx), createSpectrumCard(ctx), createProblemsCard(ctx)),
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
