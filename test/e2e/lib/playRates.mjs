// Play's speeds as a person meets them: on a scene and on an imported MuJoCo model, Play from the
// panel's button at real time, at ×10 and "as fast as possible" (the header's speed select), each
// from step 0 for a few seconds, then Pause from the button. Printed per run: the steps per second
// the panel showed against the configured rate (1/dt × the multiple), the host's rate from the
// panel's flow log, the time between the panel's updates, and where Pause landed against the step
// on screen at the click (and how far the host had run past it). Asserted: Play starts, steps and
// stops, and Pause lands within one step of the step the header showed when the click reached
// the page, at every speed. The rates are measurements only (the wall clock is this machine's).
import { closeAllEditors, quickOpen, runCommand, waitForHeatmap, webviewContent } from './ui.mjs';
import { installStepLog, readFlow, readPanel } from './runloop.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Each model with its time step (the rate a multiple of real time asks for is multiple / dt). */
/**
 * `endsAt`: the step where the run stops by itself (the chain's blow-up). A speed that would reach
 * it within the Play is paused as soon as the panel shows a step of the run (its updates come
 * about a second apart under load, and the chain reaches 1109 in about a second at ×10).
 */
export const PLAY_RATE_MODELS = [
  { file: 'chain.scene.json', dt: 0.005, endsAt: 1109 },
  { file: 'ant.xml', dt: 0.01 },
];
const SPEEDS = [
  { value: '1', label: 'real time', multiple: 1 },
  { value: '10', label: '×10', multiple: 10 },
  { value: 'max', label: 'as fast as possible', multiple: undefined },
];
/** How long each Play runs before Pause (ms): the chain at real time is still short of its blow-up (step 1109, 5.5 s). */
const PLAY_MS = 3000;

const taken = (e) => Number(/\/\s*(\d+)/.exec(e.text)?.[1] ?? -1);
const shownOf = (e) => Number(/^(\d+)/.exec(e.text)?.[1] ?? -1);

async function resetTo0(page, inner) {
  await runCommand(page, 'Constraint Lens: Reset');
  const t0 = Date.now();
  for (;;) {
    const p = await inner.locator('body').evaluate(readPanel);
    if (p.taken === 0 && !p.playing) return;
    if (Date.now() - t0 > 20_000) throw new Error(`Reset: the panel shows ${p.text}, playing ${p.playing}`);
    await sleep(250);
  }
}

/** One Play at `speed` from step 0 and its Pause; the figures of the run. */
async function playOnce(page, inner, model, speed) {
  await resetTo0(page, inner);
  await inner.locator('#cl-play-speed').selectOption(speed.value);
  await sleep(300);
  await inner.locator('body').evaluate(installStepLog);
  const t0 = Date.now();
  await inner.locator('[data-command="playPause"]').click();
  let p = await inner.locator('body').evaluate(readPanel);
  const early = model.endsAt !== undefined && (speed.multiple === undefined || ((speed.multiple / model.dt) * PLAY_MS) / 1000 > model.endsAt);
  while (Date.now() - t0 < PLAY_MS) {
    await sleep(early ? 25 : 250);
    p = await inner.locator('body').evaluate(readPanel);
    if (!p.playing && p.taken > 0 && Date.now() - t0 > 1000) break; // the run ended by itself (a blow-up)
    if (early && p.shown > 0) break;
  }
  let ended = !p.playing;
  const tc = Date.now();
  if (!ended) await inner.locator('[data-command="playPause"]').click();

  let after = p;
  for (let i = 0; i < 40 && (after.playing || i < 4); i++) {
    await sleep(250);
    after = await inner.locator('body').evaluate(readPanel);
  }
  if (after.playing) throw new Error(`${model.file} at ${speed.label}: still playing after Pause (${after.text})`);
  if (after.taken <= 0) throw new Error(`${model.file} at ${speed.label}: Play took no step (${after.text})`);
  const log = after.log.filter((e) => !e.click);
  const click = after.log.find((e) => e.click && e.t >= tc);
  // Play's start (the button pressed) and a stop before the click: the run ended by itself (a
  // blow-up), maybe between the last look and the click (which then played again)
  const started = log.find((e) => e.t >= t0 && e.text.endsWith('|true'));
  const stop = started ? log.find((e) => e.t > started.t && !e.text.endsWith('|true') && (!click || e.t < click.t)) : undefined;
  if (stop) ended = true;
  // the panel's steps while playing: from its first step shown to the last one before the click
  const during = log.filter((e) => e.t >= t0 && e.t <= tc && taken(e) > 0);
  const first = log.find((e) => e.t >= t0 && taken(e) > 0);
  const lastSeen = during.at(-1);
  const shownRate = first && lastSeen && lastSeen.t > first.t ? (taken(lastSeen) - taken(first)) / ((lastSeen.t - first.t) / 1000) : NaN;
  const flow = (await inner.locator('body').evaluate(readFlow, t0)).filter((e) => e.at <= tc && typeof e.total === 'number' && e.total > 0);
  const hostRate = flow.length > 1 ? (flow.at(-1).total - flow[0].total) / ((flow.at(-1).at - flow[0].at) / 1000) : NaN;
  const gaps = flow.slice(1).map((e, i) => e.at - flow[i].at);
  // the step the header showed when the click reached the page (read as the click event began)
  const atClick = click ? shownOf(click) : NaN;
  const onShown = Math.abs(after.shown - atClick) <= 1;
  return {
    model: model.file,
    speed: speed.label,
    configured: speed.multiple === undefined ? Infinity : speed.multiple / model.dt,
    shownRate,
    hostRate,
    firstStepMs: first ? first.t - t0 : NaN,
    gapMedian: median(gaps),
    gapMax: gaps.length ? Math.max(...gaps) : NaN,
    updates: flow.length,
    ended,
    atClick,
    onShown,
    landed: after.shown,
    hostLead: after.taken - after.shown,
    taken: after.taken,
  };
}

/** The table's line of one run. */
function row(r) {
  const n = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  const pause = r.ended ? `ended by itself at step ${r.taken} (not a Pause)` : `shown ${r.atClick} at the click → landed on ${r.landed} (Δ ${r.landed - r.atClick}), host ${r.hostLead} past it`;
  return `| ${r.model} | ${r.speed} | ${r.configured === Infinity ? '∞' : n(r.configured)} | ${n(r.shownRate)} | ${n(r.hostRate)} | ${n(r.firstStepMs)} | ${n(r.gapMedian)} / ${n(r.gapMax)} (${r.updates}) | ${pause} |`;
}

/**
 * Play at each speed on each model (its inspector opened from the palette). Logs a table; throws
 * when Play does not start, step or stop, or Pause lands more than one step from the step the
 * header showed when the click reached the page.
 */
export async function playRatesScenario(page, { log = console.log, models = PLAY_RATE_MODELS } = {}) {
  const rows = [];
  for (const model of models) {
    await closeAllEditors(page);
    await quickOpen(page, model.file);
    await runCommand(page, 'Constraint Lens: Open Inspector');
    const heat = await waitForHeatmap(page);
    if (!heat.ok) throw new Error(`the inspector of ${model.file} did not draw`);
    const inner = webviewContent(page);
    for (const speed of SPEEDS) {
      const r = await playOnce(page, inner, model, speed);
      log(`  play rate ${row(r)}`);
      rows.push(r);
      if (!r.ended && !r.onShown) throw new Error(`${model.file} at ${speed.label}: Pause with step ${r.atClick} shown in the header landed on ${r.landed}`);
    }
    // leave the model at the speed the next one starts from
    await inner.locator('#cl-play-speed').selectOption('setting');
  }
  log('  | model | speed | configured steps/s | shown steps/s | host steps/s (flow) | first step after click (ms) | update gap median / max ms (updates) | Pause |');
  log('  |---|---|---|---|---|---|---|---|');
  for (const r of rows) log(`  ${row(r)}`);
  return rows.map((r) => `${r.model} ${r.speed}: ${Number.isFinite(r.shownRate) ? r.shownRate.toFixed(0) : '–'} of ${r.configured === Infinity ? '∞' : r.configured.toFixed(0)} steps/s`).join('; ');
}
