// The header: scene name and file, the simulation controls (or the report badge), the summary
// stats of the shown step, and the timeline below them.
import type { PanelSolver, PlaySpeed, SystemSnapshot } from '../../src/protocol';
import { button, clear, h, icon } from '../dom';
import { condBandDescription, condBandLegend, condBand, COND_BAND_LABEL as condBandLabel, formatNumber as fmt, formatCond, formatTime as fmtTime, plural } from '../../src/shared';
import { panelProblems, problemCounts, shownCondition, shownTime } from '../selectors';
import type { SimCommand } from '../actions';
import { caps, type CardContext } from './card';
import { createTimeline } from './timeline';

const COMMANDS: { command: SimCommand; label: string; icon: string; title: string }[] = [
  { command: 'step', label: 'Step', icon: 'step', title: 'Advance one time step' },
  { command: 'run', label: 'Run', icon: 'run', title: 'Run the scene’s planned number of steps' },
  { command: 'playPause', label: 'Play', icon: 'play', title: 'Play / pause the simulation' },
  { command: 'reset', label: 'Reset', icon: 'reset', title: 'Back to the initial state (clears the history)' },
];

export function createHeader(ctx: CardContext): HTMLElement {
  const { store, actions } = ctx;
  const title = h('h1', { class: 'cl-title' });
  const file = h('span', { class: 'cl-file' });
  const subtitle = h('div', { class: 'cl-subtitle' });
  // Imported models: what the run leaves out (the CL606 note), where the user looks first.
  const missing = h('div', { class: 'cl-not-simulated', role: 'note' });
  missing.hidden = true;
  const titleBlock = h('div', { class: 'cl-title-block' }, h('div', { class: 'cl-title-line' }, title, file), subtitle, missing);
  const controls = h('div', { class: 'cl-controls', role: 'toolbar', 'aria-label': 'Simulation controls' });
  let playBtn: HTMLButtonElement | undefined;
  // an MJCF or URDF model: who takes the steps, the engine or MuJoCo (the host starts the other from the initial state)
  const solverSwitch = h('div', { class: 'cl-solver-switch', role: 'radiogroup', 'aria-label': 'Solver' });
  solverSwitch.hidden = true;
  const solverBtns = SOLVERS.map((o) => {
    const b = button(o.label, { title: o.title, onClick: () => store.getState().model?.solver !== o.solver && actions.solver(o.solver) });
    b.dataset.solver = o.solver;
    b.setAttribute('role', 'radio');
    solverSwitch.append(b);
    return b;
  });
  if (ctx.report) {
    controls.append(h('span', { class: 'cl-badge', title: 'A static report: the recorded run can be scrubbed, nothing is re-computed.', text: 'Report · read-only' }));
  } else if (store.getState().model?.trace) {
    // a trace file: its steps were taken by the solver that wrote it; nothing runs here
    controls.append(h('span', { class: 'cl-badge', title: "A trace file of another solver: its steps can be scrubbed, nothing is simulated.", text: 'Trace · read-only' }));
  } else {
    for (const c of COMMANDS) {
      const b = button(c.label, { icon: c.icon, title: c.title, cls: c.command === 'playPause' ? 'cl-btn-primary' : '', onClick: () => actions.command(c.command) });
      b.dataset.command = c.command;
      if (c.command === 'playPause') {
        playBtn = b;
        b.setAttribute('aria-pressed', 'false');
      }
      controls.append(b);
    }
    controls.append(speedSelect((speed) => actions.playSpeed(speed)), solverSwitch);
  }
  const stats = h('div', { class: 'cl-stats', role: 'list', 'aria-label': 'System summary' });
  const header = h('header', { class: 'cl-header' }, h('div', { class: 'cl-header-top' }, titleBlock, controls), stats, createTimeline(ctx));

  store.watch(
    (s) => [s.model?.sceneName, s.model?.fileName],
    ([name, fileName]) => {
      if (name === undefined) return;
      title.textContent = name || '(unnamed scene)';
      file.textContent = fileName ?? '';
      document.title = `${name} — Constraint Lens`;
    },
  );

  store.watch(
    (s) => [s.model?.solver],
    ([solver]) => {
      solverSwitch.hidden = solver === undefined;
      for (const b of solverBtns) {
        const on = b.dataset.solver === solver;
        b.setAttribute('aria-checked', String(on));
        b.classList.toggle('cl-btn-primary', on);
      }
    },
  );

  store.watch(
    (s) => [s.model?.notSimulated],
    ([list]) => {
      const cats = list ?? [];
      missing.hidden = cats.length === 0;
      missing.textContent = cats.length ? `⚠ Not simulated: ${cats.map((c) => c.category).join(', ')}` : '';
      missing.title = cats.map((c) => `${c.category}: ${c.items.join(', ')}`).join('\n');
    },
  );

  store.watch(
    (s) => [s.model, s.snapshot, s.step, s.total, s.history],
    (_, s) => {
      const m = s.model;
      const snap = s.snapshot;
      if (!m || !snap) return;
      // the integrator that runs, and the source model's when it asked for another (its difference on hover)
      const integ = snap.integrator;
      const integText = integ ? ` · ${integ.runs}${integ.requested && integ.difference ? ` (the model asks for ${integ.requested})` : ''}` : '';
      // msd-sim's Lagrange framework (quaternion coordinates): 7 position columns per body and its own b
      const msd = snap.producer?.name === 'msd-sim';
      const moving = msd ? snap.J.cols / 7 : snap.bodies.length;
      const how = msd ? 'quaternion coordinates (msd-sim) · b = −J·M⁻¹·F − α·C − β·Ċ' : `${snap.formulation} formulation · ${snap.stabilization} stabilisation`;
      if (m.trace) subtitle.textContent = `trace of ${snap.producer?.name ?? 'a solver'} · ${plural(snap.rank.rows, 'row')} on ${plural(snap.rank.dofs, 'DOF')} · ${plural(m.trace.steps.length, 'step')}`;
      // MuJoCo's step is in joint space: its system has no bodies or formulation of the engine's to count
      else if (snap.producer?.kind === 'mujoco')
        subtitle.textContent = `MuJoCo's mj_step · dt = ${fmt(m.dt)} s${m.mujocoRun ? ` · ${m.mujocoRun.integrator} integrator` : ''} · ${plural(snap.rank.dofs, 'DOF')}, ${plural(snap.rank.rows, 'constraint row')} at this step`;
      else subtitle.textContent = `${how} · dt = ${fmt(m.dt)} s${integText} · ${plural(moving, 'moving body', 'moving bodies')}, ${plural(snap.constraints.length, 'constraint')}`;
      subtitle.title = integ?.difference ?? '';
      clear(stats);
      const stat = (label: string, value: string | Node, opts: { cls?: string; title?: string; id?: string } = {}): void => {
        stats.append(
          h('div', { class: `cl-stat ${opts.cls ?? ''}`.trim(), role: 'listitem', title: opts.title, 'data-stat': opts.id }, h('span', { class: 'cl-stat-label', text: caps(label) }), h('span', { class: 'cl-stat-value' }, value)),
        );
      };
      stat('Step', `${s.step} / ${s.total}`, { id: 'step', title: 'Shown step / steps taken' });
      stat('Time', fmtTime(shownTime(s)), { id: 'time' });
      const cond = shownCondition(s)!;
      stat('Method', cond.method, { id: 'method', title: snap.producer?.kind === 'mujoco' ? "MuJoCo's constraint solver on this step (the model's <option solver>; Newton by default)" : 'Linear solver used for A·λ = rhs' });
      const band = condBand(cond.cond, { warning: m.conditionWarning, rows: snap.rank.rows });
      const kv = h('span', { class: 'cl-cond' }, h('span', { class: 'cl-cond-num', text: formatCond(cond.cond, { estimated: cond.estimated, rows: snap.rank.rows }) }), h('span', { class: `cl-band cl-band-${band}`, text: condBandLabel[band] }));
      stat('κ(A)', kv, {
        id: 'cond',
        cls: `cl-stat-cond cl-${band}`,
        title: `${condSourceText(cond, snap)} ${condBandDescription(band, m.conditionWarning)}. Bands: ${condBandLegend(m.conditionWarning)}.`,
      });
      const deficient = snap.rank.J < snap.rank.rows;
      stat('rank J', `${snap.rank.J} / ${snap.rank.rows} rows`, { id: 'rank', cls: deficient ? 'cl-warn' : '', title: deficient ? `${snap.rank.rows - snap.rank.J} dependent row(s): see Redundancy` : 'Full row rank' });
      stat('DOFs', String(snap.rank.dofs), { id: 'dofs', title: msd ? 'Position coordinates x, y, z, qw, qx, qy, qz of the moving bodies (7 per body)' : 'Velocity coordinates of the moving bodies (6 per body)' });
      const n = problemCounts(panelProblems(m).diagnostics);
      const probs = h(
        'span',
        { class: 'cl-probs' },
        h('span', { class: `cl-prob cl-prob-error ${n.error ? '' : 'cl-zero'}` }, icon('error'), String(n.error)),
        h('span', { class: `cl-prob cl-prob-warning ${n.warning ? '' : 'cl-zero'}` }, icon('warning'), String(n.warning)),
        h('span', { class: `cl-prob cl-prob-info ${n.info ? '' : 'cl-zero'}` }, icon('info'), String(n.info)),
      );
      stat('Problems', probs, { id: 'problems', title: `${n.error} errors, ${n.warning} warnings, ${n.info} infos` });
      stats.dataset.step = String(s.step);
    },
  );

  store.watch(
    (s) => s.running,
    (running) => {
      const b = playBtn;
      if (!b) return;
      b.setAttribute('aria-pressed', String(running));
      clear(b);
      b.append(icon(running ? 'pause' : 'play'), h('span', { class: 'cl-btn-label', text: running ? 'Pause' : 'Play' }));
      b.title = running ? 'Pause the simulation' : 'Play the simulation';
    },
  );
  return header;
}

/**
 * Where the header's κ comes from, in words: the same number as the status bar, CodeLens, tree and
 * history chart (src/shared/stepKappa.ts); the re-analysed state after the step is named apart.
 */
function condSourceText(cond: NonNullable<ReturnType<typeof shownCondition>>, snap: SystemSnapshot): string {
  const rows = snap.rank.rows;
  const kind = cond.estimated ? 'Hager–Higham estimate of the 1-norm condition number κ₁' : '2-norm condition number κ₂';
  const what = cond.source === 'record' ? `${kind} of the A that step ${cond.step} solved with (the run's record, as in the status bar, CodeLens, tree and history chart)` : `${kind} of A at step ${cond.step}`;
  const reanalysed = cond.source === 'record' && snap.step === cond.step ? ` The state after step ${cond.step}, re-analysed: κ = ${formatCond(snap.cond.A, { rows, estimated: snap.condEstimated })}, Jacobi-scaled ${formatCond(snap.cond.scaled, { rows })}.` : ` Jacobi-scaled κ = ${formatCond(snap.cond.scaled, { rows })}.`;
  return `${what}.${reanalysed}`;
}

const SOLVERS: { solver: PanelSolver; label: string; title: string }[] = [
  { solver: 'engine', label: 'Engine', title: "Step the model with Constraint Lens's engine (its formulation of the imported model), from the initial state" },
  { solver: 'mujoco', label: 'MuJoCo', title: "Step the model with MuJoCo's own mj_step (all of MuJoCo: actuators, tendons, contacts, soft constraints), from the initial state; every card shows MuJoCo's system" },
];

/** Play's speeds: the setting's steps per second, multiples of real time (1/dt steps per second), as fast as possible. */
const SPEEDS: { value: string; label: string; speed: PlaySpeed }[] = [
  { value: 'setting', label: 'steps/s (setting)', speed: 'setting' },
  { value: '0.1', label: '×0.1 real time', speed: { realTime: 0.1 } },
  { value: '0.5', label: '×0.5 real time', speed: { realTime: 0.5 } },
  { value: '1', label: 'real time', speed: { realTime: 1 } },
  { value: '2', label: '×2 real time', speed: { realTime: 2 } },
  { value: '10', label: '×10 real time', speed: { realTime: 10 } },
  { value: 'max', label: 'as fast as possible', speed: 'max' },
];

function speedSelect(onChange: (speed: PlaySpeed) => void): HTMLElement {
  const sel = h('select', { class: 'cl-speed', id: 'cl-play-speed', 'aria-label': 'Play speed', title: 'Play speed (Space plays and pauses; ← → step, Home / End)' });
  for (const s of SPEEDS) sel.append(h('option', { value: s.value, text: s.label }));
  sel.addEventListener('change', () => {
    const s = SPEEDS.find((x) => x.value === sel.value);
    if (s) onChange(s.speed);
  });
  return sel;
}
