// The MuJoCo card (MJCF and URDF models only): Compare with MuJoCo runs MuJoCo and this engine on
// the same model (the host does it on request, never on an edit) and the card shows, per equality
// constraint, MuJoCo's efc_force next to our λ, MuJoCo's R and A_ii next to our A_ii, both
// violations over the run (table and log-scale sparkline), MuJoCo's iterations and warnings, and
// both runs in joint space (cards/mujocoTrajectory.ts), which also serves models without equalities.
// Texts come from ../mujocoView.ts; in a report the embedded comparison is shown read-only.
import { button, clear, h } from '../dom';
import {
  COLUMNS,
  whyTheyDiffer,
  bodiesText,
  cardVisible,
  equalityTitle,
  mujocoSlice,
  otherRowsText,
  solverParamsText,
  sparkline,
  startText,
  statusText,
  tableRows,
  timingText,
  violationText,
} from '../mujocoView';
import type { MujocoEquality } from '../../src/protocol';
import { caps, card, type CardContext } from './card';
import { trajectoryBlock } from './mujocoTrajectory';

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 56;

export function createMujocoCard({ store, actions, report }: CardContext): HTMLElement {
  const compare = button('Compare with MuJoCo', { cls: 'cl-btn-primary', title: 'Run MuJoCo and this engine on the model and compare them', onClick: () => actions.command('compareMujoco') });
  const keyframe = button('Choose Keyframe…', { title: "Start the model from qpos0 or one of its <key>s (re-analyses the model)", onClick: () => actions.command('chooseKeyframe') });
  const tools = report ? [] : [keyframe, compare];
  const start = h('p', { class: 'cl-desc cl-mj-start' });
  const status = h('p', { class: 'cl-desc cl-mj-status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'cl-mj-results' });
  const el = card('mujoco', 'MuJoCo', tools, [start, status, results]);
  el.hidden = true;

  store.watch(
    (s) => [mujocoSlice(s).section, s.model?.plannedSteps, s.model?.dt],
    (_, s) => {
      const { section } = mujocoSlice(s);
      el.hidden = !cardVisible(section, report);
      if (!section || el.hidden) return;
      start.textContent = startText(section);
      status.textContent = statusText(section, s.model?.plannedSteps ?? 0, s.model?.dt ?? 0);
      status.classList.toggle('cl-mj-failed', section.status === 'failed');
      compare.disabled = section.status === 'running';
      keyframe.disabled = section.status === 'running';
      compare.querySelector('.cl-btn-label')!.textContent = section.status === 'done' ? 'Compare Again' : 'Compare with MuJoCo';
      el.setAttribute('aria-busy', String(section.status === 'running'));
      clear(results);
      const c = section.status === 'done' ? section.comparison : undefined;
      if (!c) return;
      const other = otherRowsText(c);
      if (other) results.append(h('p', { class: 'cl-desc cl-mj-other', text: other }));
      if (c.stoppedAt !== undefined) results.append(h('p', { class: 'cl-desc cl-mj-failed', text: `Our run stopped at step ${c.stoppedAt} (a non-finite value).` }));
      if (!c.equalities.length) {
        results.append(h('p', { class: 'cl-empty', text: 'The model has no equality constraints: MuJoCo has no constraint rows to compare (its joints are its coordinates).' }));
      }
      for (const e of c.equalities) results.append(equalityBlock(e));
      if (c.trajectory) results.append(trajectoryBlock(c.trajectory, c.dt));
      const bodies = bodiesText(c);
      if (bodies) results.append(h('p', { class: 'cl-desc', text: bodies }));
      results.append(h('p', { class: 'cl-desc', text: timingText(c) }));
      for (const n of c.notes) results.append(h('p', { class: 'cl-desc', text: `Note: ${n}` }));
      results.append(h('p', { class: 'cl-desc cl-mj-why', text: whyTheyDiffer(c) }));
    },
  );
  return el;
}

function equalityBlock(e: MujocoEquality): HTMLElement {
  const table = h(
    'table',
    { class: 'cl-table cl-mj-table' },
    h('caption', { class: 'cl-mj-caption', text: `${equalityTitle(e)} at t = 0` }),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((t, k) => h('th', { scope: 'col', class: k > 0 ? 'cl-num' : '', text: k === 0 ? caps(t) : t })))),
    h(
      'tbody',
      {},
      ...tableRows(e).map((cells) => h('tr', {}, h('th', { scope: 'row', class: 'cl-mono', text: cells[0] }), ...cells.slice(1).map((x) => h('td', { class: 'cl-num cl-mono', text: x })))),
    ),
  );
  return h(
    'div',
    { class: 'cl-mj-eq' },
    h('h3', { class: 'cl-mj-title' }, h('span', { class: 'cl-mono', text: equalityTitle(e) }), h('span', { class: 'cl-hint', text: ` ${solverParamsText(e)}` })),
    h('div', { class: 'cl-table-wrap' }, table),
    h('div', { class: 'cl-mj-violation' }, sparklineSvg(e), h('p', { class: 'cl-desc', text: violationText(e) })),
  );
}

/** Both violations over the run, log scale: MuJoCo's and ours (legend in the text beside it). */
function sparklineSvg(e: MujocoEquality): Element {
  const sp = sparkline(e, W, H);
  const legend = h(
    'div',
    { class: 'cl-mj-legend' },
    h('span', { class: 'cl-mj-swatch cl-mj-mujoco', 'aria-hidden': 'true' }),
    ' MuJoCo ',
    h('span', { class: 'cl-mj-swatch cl-mj-ours', 'aria-hidden': 'true' }),
    ' ours',
    sp ? h('span', { class: 'cl-hint', text: ` (‖C‖, log scale 1e${Math.floor(sp.lo)} … 1e${Math.ceil(sp.hi)})` }) : '',
  );
  if (!sp) return legend;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'cl-mj-spark');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${equalityTitle(e)}: ${violationText(e)}`);
  for (const [cls, pts] of [['cl-mj-mujoco', sp.mujoco], ['cl-mj-ours', sp.ours]] as const) {
    if (!pts) continue;
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', pts);
    line.setAttribute('class', cls);
    line.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.append(line);
  }
  return h('div', { class: 'cl-mj-chart' }, svg, legend);
}
