// What every card gets, and the card frame (a titled section with tools and a body).
import type { PanelActions } from '../actions';
import { h } from '../dom';
import type { Store } from '../store';

export interface CardContext {
  store: Store;
  actions: PanelActions;
  /** Standalone report: read-only (no simulation controls, nothing posted). */
  report: boolean;
}

export function card(id: string, title: string, tools: HTMLElement[], body: HTMLElement[]): HTMLElement {
  return h(
    'section',
    { class: 'cl-card', id: `cl-${id}`, 'aria-labelledby': `cl-${id}-title` },
    h('div', { class: 'cl-card-head' }, h('h2', { class: 'cl-card-title', id: `cl-${id}-title`, text: caps(title) }), h('div', { class: 'cl-card-tools' }, ...tools)),
    h('div', { class: 'cl-card-body' }, ...body),
  );
}

/**
 * A small-caps-style label: Latin letters upper-cased in the text itself, everything else (κ, λ,
 * σ, Σ, subscripts) left as written. CSS `text-transform: uppercase` would turn κ into Κ.
 */
export const caps = (label: string): string => label.replace(/[a-z]+/g, (w) => w.toUpperCase());
