// The redundancy card (hidden when every row is independent): each dependent row as a linear
// combination of earlier rows, with links that select the constraints and show them in J or A.
import { button, clear, h } from '../dom';
import { formatNumber as fmt } from '../../src/shared';
import { card, type CardContext } from './card';

export function createRedundancyCard({ store, actions }: CardContext): HTMLElement {
  const body = h('div', { class: 'cl-redundancy' });
  const el = card('redundancy', 'Redundancy', [], [body]);

  store.watch(
    (s) => s.snapshot,
    (snap) => {
      if (!snap) return;
      clear(body);
      el.hidden = snap.redundant.length === 0;
      if (!snap.redundant.length) return;
      const consistency =
        snap.consistent === null
          ? ''
          : snap.consistent
            ? ' The redundancy is consistent: a λ exists but it is not unique (the solver returns the minimum-norm one).'
            : ' The redundant rows conflict: no λ satisfies all of them.';
      body.append(h('p', { class: 'cl-desc', text: `${snap.redundant.length} of ${snap.rank.rows} rows depend on earlier rows (rank ${snap.rank.J}).${consistency}` }));
      const list = h('ul', { class: 'cl-red-list' });
      const cIndex = (name: string): number => snap.constraints.findIndex((c) => c.name === name);
      const link = (name: string, row: number): HTMLElement => {
        const ci = cIndex(name);
        const c = snap.constraints[ci];
        const label = snap.rows[(c?.firstRow ?? 0) + row]?.label ?? `${name}[${row}]`;
        const b = h('button', { type: 'button', class: 'cl-link cl-mono', text: label, title: `Select ${name}` });
        b.addEventListener('click', () => actions.select(ci, true));
        return b;
      };
      for (const r of snap.redundant) {
        const terms: (Node | string)[] = [];
        r.dependsOn.forEach((d, k) => {
          const sign = d.coefficient < 0 ? ' − ' : k === 0 ? '' : ' + ';
          terms.push(sign, h('span', { class: 'cl-mono', text: `${fmt(Math.abs(d.coefficient), 4)}·` }), link(d.constraint, d.row));
        });
        const show = (id: string, text: string): HTMLButtonElement =>
          button(text, {
            cls: 'cl-small',
            title: `Show ${text.replace('Show in ', '')} with the row highlighted`,
            onClick: () => {
              actions.showMatrix(id);
              const ci = cIndex(r.constraint);
              if (ci >= 0) actions.select(ci, true);
            },
          });
        list.append(
          h(
            'li',
            { class: 'cl-red-item' },
            h('div', { class: 'cl-red-eq' }, link(r.constraint, r.row), h('span', { class: 'cl-eq', text: ' = ' }), ...(terms.length ? terms : ['0'])),
            h('div', { class: 'cl-red-actions' }, show('J', 'Show in J'), show('A', 'Show in A')),
          ),
        );
      }
      body.append(list);
    },
  );
  return el;
}
