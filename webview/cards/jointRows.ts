// The joint limits and friction loss card (velocity formulation): the rows of the shown step — name,
// bound or budget, state, joint coordinate, gap, force — and, over the run, how many steps each row
// acted in and its largest force. Hidden when the scene has none.
import type { JointRowReport } from '../../src/protocol';
import { formatNumber as fmt } from '../../src/shared';
import type { PanelState } from '../store';
import { extrasRecords } from '../history';
import { clear, h } from '../dom';
import { caps, card, type CardContext } from './card';

const COLUMNS: [string, boolean][] = [['Row', true], ['Bound', true], ['State', true], ['q', false], ['Gap', true], ['Force', true]];
const NUMERIC = new Set([3, 4, 5]);

function row(r: JointRowReport): HTMLTableRowElement {
  const bound = r.side ? `${r.side} ${fmt(r.bound, 4)}` : `± ${fmt(r.bound, 4)}`;
  return h(
    'tr',
    { 'data-joint-row': r.name, 'data-state': r.state },
    h('th', { scope: 'row', class: 'cl-mono', text: r.name }),
    h('td', { class: 'cl-mono', text: bound }),
    h('td', {}, h('span', { class: `cl-contact-state cl-contact-${r.state}`, text: r.state })),
    h('td', { class: 'cl-num cl-mono', text: fmt(r.q, 4) }),
    h('td', { class: 'cl-num cl-mono', text: r.gap === undefined ? '–' : fmt(r.gap, 3) }),
    h('td', { class: 'cl-num cl-mono', text: fmt(r.force) }),
  );
}

export function createJointRowsCard({ store }: CardContext): HTMLElement {
  const note = h('p', { class: 'cl-desc' });
  const wrap = h('div', { class: 'cl-table-wrap cl-contact-table' });
  const run = h('div', { class: 'cl-kv cl-contact-kv' });
  const el = card('joint-rows', 'Joint limits and friction loss', [], [note, wrap, run]);
  el.hidden = true;

  const draw = (s: PanelState): void => {
    const snap = s.snapshot;
    const history = extrasRecords(s.history);
    const list = snap?.jointRows ?? [];
    el.hidden = !snap || (list.length === 0 && !history.some((r) => r.jointRows?.length));
    if (el.hidden || !snap) return;
    note.textContent = list.length
      ? `The rows the step from step ${snap.step} solved (velocity formulation): a limit's force pushes away from its bound, friction loss stays within ± its budget (N·m or N). q: the joint coordinate, 0 in the initial state.`
      : `No joint limit is near its bound at step ${snap.step}, and no joint has friction loss.`;
    clear(wrap);
    if (list.length) {
      const table = h('table', { class: 'cl-table' });
      table.append(h('thead', {}, h('tr', {}, ...COLUMNS.map(([t, word], k) => h('th', { scope: 'col', class: NUMERIC.has(k) ? 'cl-num' : '', text: word ? caps(t) : t })))));
      const tb = h('tbody');
      for (const r of list) tb.append(row(r));
      table.append(tb);
      wrap.append(table);
    }
    clear(run);
    const acted = new Map<string, { steps: number; most: number }>();
    for (const rec of history) {
      for (const r of rec.jointRows ?? []) {
        if (r.state === 'open') continue;
        const e = acted.get(r.name) ?? { steps: 0, most: 0 };
        e.steps++;
        e.most = Math.max(e.most, Math.abs(r.force));
        acted.set(r.name, e);
      }
    }
    for (const [name, e] of acted) {
      run.append(h('div', { class: 'cl-kv-item' }, h('span', { class: 'cl-kv-k', text: name }), h('span', { class: 'cl-kv-v', text: `${e.steps} of ${s.history.length} steps, |force| ≤ ${fmt(e.most)}` })));
    }
  };
  store.watch((s) => [s.snapshot, s.history], (_, s) => draw(s));
  return el;
}
