// The contacts card (velocity formulation with shapes, nonlinear formulation): the contacts of the
// shown step — bodies, shapes, point, normal, gap, normal and friction force, state, cone ratio —
// the complementarity residual and the largest penetration, and both over the run. Forces and gaps
// below the scene's noise floor (the 3D view's: scene3d/robust.ts) read as 0, their digits in the tooltip.
import type { ContactReport, SystemSnapshot } from '../../src/protocol';
import { formatNumber as fmt, formatVec as fmtVec } from '../../src/shared';
import type { StepChart } from '../contactCharts';
import { DeferredPart } from '../load';
import type { PanelState } from '../store';
import { extrasRecords } from '../history';
import { clear, h } from '../dom';
import { caps, card, type CardContext } from './card';
import { CONTACT_NOISE_RELATIVE, contactWeight, NOISE_RELATIVE, noiseFloor } from '../scene3d/robust';

/** Longest table drawn. */
const MAX_ROWS = 300;
/** The engine's finite stand-in for an infinite cone ratio (friction without normal force). */
const CONE_RATIO_MAX = 1e6;
/** Column headers: words in small caps, the mathematics (f_n, t1…) as written. */
const COLUMNS: [string, boolean][] = [['#', false], ['Bodies', true], ['Shapes', true], ['Point', true], ['Normal', true], ['Gap', true], ['f_n', false], ['f_t (t1, t2)', false], ['State', true], ['‖f_t‖/μf_n', false]];
const NUMERIC = new Set([5, 6, 7, 9]);

/** The contact rows of a snapshot (undefined: the formulation has none). */
const contactsOf = (s: SystemSnapshot | undefined): ContactReport[] | undefined => (s && Array.isArray(s.contacts) ? s.contacts : undefined);

/** A 3-vector with round-off noise (below 1e-12 of its largest component, or of 1) shown as 0. */
function cleanVec(v: readonly number[]): string {
  const m = Math.max(1, ...v.map((x) => Math.abs(x)));
  return fmtVec(v.map((x) => (Math.abs(x) < 1e-12 * m ? 0 : x)));
}

const coneText = (r: number): string => (r >= CONE_RATIO_MAX ? '∞ (no budget)' : fmt(r, 3));

/** Below these a force (N) or a gap (m) is round-off and reads as 0: the 3D view's noise floor, from the scene's weight and size. */
interface Floors {
  force: number;
  length: number;
  /** A contact's own force floor, as the 3D view's arrows (robust.ts): the solver's residue on a resting contact reads 0. */
  contactForce: (c: ContactReport) => number;
}

function floorsOf(snap: SystemSnapshot, list: readonly ContactReport[]): Floors {
  let size = 1;
  for (const c of list) for (const x of c.point) if (Number.isFinite(x)) size = Math.max(size, Math.abs(x));
  const bodies = snap.bodyStates ?? [];
  const force = noiseFloor(bodies.map((b) => b.mass), size).force;
  return { force, length: NOISE_RELATIVE * size, contactForce: (c) => Math.max(force, CONTACT_NOISE_RELATIVE * contactWeight(bodies, c)) };
}

const clean = (x: number, floor: number): number => (Math.abs(x) < floor ? 0 : x);

function row(c: ContactReport, k: number, penetrationTolerance: number | undefined, floors: Floors): HTMLTableRowElement {
  const fFloor = floors.contactForce(c);
  const fx = clean(c.frictionForce[0], fFloor), fy = clean(c.frictionForce[1], fFloor);
  const ft = clean(Math.hypot(c.frictionForce[0], c.frictionForce[1]), fFloor);
  const deep = penetrationTolerance !== undefined && -c.gap > penetrationTolerance;
  return h(
    'tr',
    { 'data-contact': k, 'data-state': c.state },
    h('th', { scope: 'row', class: 'cl-mono', text: `c${k}` }),
    h('td', { class: 'cl-bodies', text: `${c.bodyA} → ${c.bodyB}` }),
    h('td', { class: 'cl-bodies', text: `${c.shapeA} · ${c.shapeB}` }),
    h('td', { class: 'cl-mono', title: fmtVec(c.point, 12), text: cleanVec(c.point) }),
    h('td', { class: 'cl-mono', title: fmtVec(c.normal, 12), text: cleanVec(c.normal) }),
    h('td', { class: `cl-num cl-mono${deep ? ' cl-contact-deep' : ''}`, title: deep ? 'penetration above solver.contacts.penetrationTolerance' : undefined, text: fmt(clean(c.gap, floors.length), 3) }),
    h('td', { class: 'cl-num cl-mono', title: `${fmt(c.normalForce, 12)} N`, text: fmt(clean(c.normalForce, fFloor)) }),
    h('td', { class: 'cl-num cl-mono', title: `‖f_t‖ = ${fmt(ft)} N (${fmt(c.frictionForce[0], 12)}, ${fmt(c.frictionForce[1], 12)})`, text: `${fmt(fx, 3)}, ${fmt(fy, 3)}` }),
    h('td', {}, h('span', { class: `cl-contact-state cl-contact-${c.state}`, text: c.state })),
    h('td', { class: `cl-num cl-mono${c.state !== 'open' && c.coneRatio > 1 + 1e-3 ? ' cl-contact-deep' : ''}`, text: coneText(ft === 0 && c.coneRatio < CONE_RATIO_MAX ? 0 : c.coneRatio) }),
  );
}

export function createContactsCard({ store, actions }: CardContext): HTMLElement {
  const summary = h('div', { class: 'cl-kv cl-contact-kv' });
  const note = h('p', { class: 'cl-desc' });
  const wrap = h('div', { class: 'cl-table-wrap cl-contact-table' });
  const canvas = h('canvas', { role: 'img', 'aria-label': 'Largest penetration and complementarity residual per step (log scale)' });
  const chartWrap = h('div', { class: 'cl-chart cl-chart-contacts' }, canvas);
  // chart.js comes with the deferred parts (load.ts): the chart is drawn once they are there
  const chart: DeferredPart<StepChart> = new DeferredPart(
    (d) => new d.StepChart(canvas, { y: { title: 'm or m/s (log)', log: true } }, (step) => actions.goToStep(step)),
    () => drawChart(store.getState()),
  );
  const el = card('contacts', 'Contacts', [], [summary, note, wrap, chartWrap]);
  el.hidden = true;

  store.watch(
    (s) => [s.snapshot, s.palette, s.model?.thresholds],
    (_, s) => {
      const snap = s.snapshot;
      const list = contactsOf(snap);
      el.hidden = !list;
      if (!snap || !list || !s.palette) return;
      clear(summary);
      const kv = (k: string, v: string, cls = '', math = ''): void => {
        summary.append(h('div', { class: `cl-kv-item ${cls}` }, h('span', { class: 'cl-kv-k', text: caps(k) + math }), h('span', { class: 'cl-kv-v', text: v })));
      };
      const count = snap.contactCount ?? list.length;
      const states = { open: 0, stick: 0, slip: 0 };
      for (const c of list) states[c.state]++;
      kv('contacts', String(count));
      kv('stick / slip / open', `${states.stick} / ${states.slip} / ${states.open}`);
      kv('complementarity', fmt(snap.complementarity ?? 0, 3));
      kv('largest penetration', `${fmt(clean(snap.maxPenetration ?? 0, floorsOf(snap, list).length), 3)} m`);
      const floors = floorsOf(snap, list);
      const total = list.reduce((a, c) => a + Math.max(0, c.normalForce), 0);
      kv('', `${fmt(clean(total, floors.force))} N`, '', 'Σ f_n');
      if (snap.asleep !== undefined) kv('asleep', `${snap.asleep} ${snap.asleep === 1 ? 'body' : 'bodies'}`);
      if (snap.pgs) kv('PGS', `${snap.pgs.iterations} sweeps, r ${fmt(snap.pgs.residual, 2)}`, snap.pgs.converged ? '' : 'cl-warn');
      else if (snap.newton) kv('Newton', `${snap.newton.iterations} it., ${snap.newton.converged ? 'converged' : 'not converged'}`, snap.newton.converged ? '' : 'cl-bad');
      // sleeping islands leave their bodies' contacts out of detection: say so where they would be missed
      const napping = snap.asleep ? ` ${snap.asleep} ${snap.asleep === 1 ? 'body is' : 'bodies are'} asleep (solver.contacts.sleep): ${snap.asleep === 1 ? 'its' : 'their'} contacts with the world and with each other are not detected until an awake body touches ${snap.asleep === 1 ? 'it' : 'them'}.` : '';
      note.textContent = count
        ? `Contacts detected at step ${snap.step} with the forces of the step from it (impulse / h). Normal from B to A; gap < 0: penetration.${napping}`
        : `No contact at step ${snap.step}.${napping}`;
      clear(wrap);
      if (list.length) {
        const table = h('table', { class: 'cl-table' });
        table.append(h('thead', {}, h('tr', {}, ...COLUMNS.map(([t, word], k) => h('th', { scope: 'col', class: NUMERIC.has(k) ? 'cl-num' : '', text: word ? caps(t) : t })))));
        const tol = s.model?.thresholds?.penetrationTolerance;
        const tb = h('tbody');
        list.slice(0, MAX_ROWS).forEach((c, k) => tb.append(row(c, k, tol, floors)));
        table.append(tb);
        wrap.append(table);
      }
      if (list.length > MAX_ROWS) wrap.append(h('p', { class: 'cl-desc', text: `Showing ${MAX_ROWS} of ${list.length} contacts.` }));
      if (count > list.length) wrap.append(h('p', { class: 'cl-desc', text: `${count - list.length} more contacts were not recorded for this step.` }));
    },
  );
  const drawChart = (s: PanelState): void => {
    const m = s.model;
    const p = s.palette;
    const run = extrasRecords(s.history);
    chartWrap.hidden = !m || !run.some((r) => r.maxPenetration !== undefined);
    if (!m || !p || chartWrap.hidden) return;
    chart.request();
    chart.value?.update(
      run,
      [
        { label: 'largest penetration (m)', get: (r) => r.maxPenetration, color: p.series[0], axis: 'y' },
        { label: 'complementarity', get: (r) => r.complementarity, color: p.series[2], axis: 'y', dash: [4, 3] },
      ],
      s.step,
      p,
    );
  };
  store.watch((s) => [s.history, s.palette, s.snapshot?.contacts !== undefined], (_, s) => drawChart(s));
  store.watch(
    (s) => s.step,
    (step, s) => {
      if (s.palette && !chartWrap.hidden) chart.value?.cursor(step, s.palette.focus);
    },
    { immediate: false },
  );
  return el;
}
