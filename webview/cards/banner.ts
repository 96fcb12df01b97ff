// The banner under the header (scene changed, errors), and the faded "stale" look of the results.
import { clear, h, icon } from '../dom';
import type { CardContext } from './card';

export function createBanner({ store }: CardContext, root: HTMLElement): HTMLElement {
  const el = h('div', { class: 'cl-banner', role: 'alert', hidden: true });
  store.watch(
    (s) => [s.banner, s.stale],
    (_, s) => {
      root.classList.toggle('cl-stale', s.stale);
      const b = s.banner;
      if (!b) {
        el.hidden = true;
        return;
      }
      clear(el);
      el.className = `cl-banner cl-banner-${b.kind}`;
      el.append(icon(b.kind), h('span', { text: b.text }));
      el.hidden = false;
    },
  );
  return el;
}

/** Before any model (e.g. the scene cannot be analysed) the message is the whole page. */
export function soloBanner(root: HTMLElement, kind: 'warning' | 'error', text: string): void {
  clear(root);
  root.append(h('div', { class: `cl-banner cl-banner-${kind} cl-banner-solo`, role: 'alert' }, icon(kind), h('span', { text })));
}
