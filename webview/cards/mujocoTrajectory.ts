// The MuJoCo card's run in joint space: per hinge or slide joint the largest |Δq| and |Δq̇| between
// MuJoCo and ours with when it happens and a small chart of both q over the run; per moving body the
// largest centre-of-mass distance with a chart of it over the run. Texts from ../mujocoTrajectoryView.ts.
import { h } from '../dom';
import { BODY_COLUMNS, JOINT_COLUMNS, bodyRow, jointRow, seriesPoints, trajectorySummary } from '../mujocoTrajectoryView';
import type { MaybeNumber, MujocoTrajectory } from '../../src/protocol';

const SVG = 'http://www.w3.org/2000/svg';
const W = 120;
const H = 24;

/** A small chart of one or two series (MuJoCo solid, ours dashed) on one linear scale. */
function spark(series: { cls: string; ys: readonly MaybeNumber[] }[], label: string, floorAtZero = false): Element {
  const sp = seriesPoints(
    series.map((s) => s.ys),
    W,
    H,
    floorAtZero,
  );
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'cl-mj-mini');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  if (sp) {
    series.forEach((s, k) => {
      if (!sp.points[k]) return;
      const line = document.createElementNS(SVG, 'polyline');
      line.setAttribute('points', sp.points[k]);
      line.setAttribute('class', s.cls);
      line.setAttribute('vector-effect', 'non-scaling-stroke');
      svg.append(line);
    });
  }
  return svg;
}

function table(cls: string, caption: string, columns: readonly string[], rows: { cells: string[]; chart: Element }[], chartTitle: string): HTMLElement {
  return h(
    'div',
    { class: 'cl-table-wrap' },
    h(
      'table',
      { class: `cl-table cl-mj-traj-table ${cls}` },
      h('caption', { class: 'cl-mj-caption', text: caption }),
      h('thead', {}, h('tr', {}, ...columns.map((t, k) => h('th', { scope: 'col', class: k > 0 ? 'cl-num' : '', text: t })), h('th', { scope: 'col', text: chartTitle }))),
      h(
        'tbody',
        {},
        ...rows.map((r) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row', class: 'cl-mono', text: r.cells[0] }),
            ...r.cells.slice(1).map((x) => h('td', { class: 'cl-num cl-mono', text: x })),
            h('td', { class: 'cl-mj-mini-cell' }, r.chart),
          ),
        ),
      ),
    ),
  );
}

export function trajectoryBlock(t: MujocoTrajectory, dt: number): HTMLElement {
  const out = h('div', { class: 'cl-mj-traj' }, h('h3', { class: 'cl-mj-traj-title', text: 'The run in joint space' }), h('p', { class: 'cl-desc cl-mj-traj-summary', text: trajectorySummary(t, dt) }));
  if (t.joints.length) {
    const rows = t.joints.map((j) => ({
      cells: jointRow(j, dt),
      chart: spark(
        [
          { cls: 'cl-mj-mujoco', ys: j.mujoco.q },
          { cls: 'cl-mj-ours', ys: j.ours.q },
        ],
        `${j.name}: q over the run, MuJoCo and ours`,
      ),
    }));
    out.append(table('cl-mj-joints', 'Joints: largest deviation between MuJoCo and ours over the run', JOINT_COLUMNS, rows, 'q over the run'));
  }
  if (t.bodies.length) {
    const rows = t.bodies.map((b) => ({ cells: bodyRow(b, dt), chart: spark([{ cls: 'cl-mj-err', ys: b.error }], `${b.name}: centre-of-mass distance over the run`, true) }));
    out.append(table('cl-mj-bodies', 'Bodies: distance between MuJoCo’s and our centre of mass over the run', BODY_COLUMNS, rows, 'distance over the run'));
  }
  out.append(
    h(
      'div',
      { class: 'cl-mj-legend' },
      h('span', { class: 'cl-mj-swatch cl-mj-mujoco', 'aria-hidden': 'true' }),
      ' MuJoCo ',
      h('span', { class: 'cl-mj-swatch cl-mj-ours', 'aria-hidden': 'true' }),
      ' ours (q, one scale per joint) ',
      h('span', { class: 'cl-mj-swatch cl-mj-err', 'aria-hidden': 'true' }),
      ' distance (from 0)',
    ),
  );
  return out;
}
