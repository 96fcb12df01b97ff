// `report TRACE`: the standalone HTML report of a trace file, the same self-contained page as a
// scene's report: the panel, read-only, with the trace's timeline (κ, rank, ‖λ‖, ‖C‖ per step and,
// for Axion, κ per Newton iteration beside the κ it stored), the matrices of the chosen step and of
// evenly spaced others, and the run's diagnostics, each saying its step.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Diagnostic, TraceAnalysis, TraceSource } from '../engine';
import type { PanelModel } from '../protocol';
import { buildReportHtml, reportGenerator, reportSnapshotSteps } from '../report';
import { buildTracePanelModel } from '../traceModel';
import { VERSION } from './args';
import { IoError, print, writeOut } from './io';

/** The report's default path: next to the trace, its extension replaced by `.report.html`. */
export function defaultTraceReportPath(file: string): string {
  return file.replace(/\.(npz|h5|hdf5|hdf)$/i, '') + '.report.html';
}

/**
 * The model a trace's report embeds: the step asked for is the one shown (and always embedded),
 * the others as a scene's report chooses them (every step of a short trace, else about 100).
 */
export function buildTraceReportModel(fileName: string, source: TraceSource, run: TraceAnalysis, diagnostics: readonly Diagnostic[], step: number, generator: string): PanelModel {
  const last = Math.max(0, source.steps - 1);
  const first = source.steps > 0 ? source.systemAt(0) : undefined;
  const chosen = reportSnapshotSteps(last, first?.J.rows ?? 0, first?.J.cols ?? 0);
  const k = Math.min(step, last);
  const steps = [...new Set([...chosen, k])].sort((a, b) => a - b);
  return { ...buildTracePanelModel(fileName, source, run, diagnostics, { step: k, snapshotSteps: steps }), generator };
}

/** Writes the report of a trace read by `report TRACE` (the CLI's panel bundle sits next to it). */
export function writeTraceReport(args: { file: string; step: number; output?: string }, source: TraceSource, run: TraceAnalysis, diagnostics: readonly Diagnostic[]): void {
  const js = join(__dirname, 'webview.js');
  const css = join(__dirname, 'webview.css');
  if (!existsSync(js) || !existsSync(css)) throw new IoError(`the panel bundle is missing next to the CLI (${js}); run 'npm run build'`);
  const model = buildTraceReportModel(basename(args.file), source, run, diagnostics, args.step, reportGenerator(VERSION, 'CLI'));
  const html = buildReportHtml(model, { js: readFileSync(js, 'utf8'), css: readFileSync(css, 'utf8') });
  const out = args.output ?? defaultTraceReportPath(args.file);
  writeOut(out, html);
  print(`Report written to ${resolve(out)} (${Math.round(html.length / 1024)} KiB, ${source.steps} trace step${source.steps === 1 ? '' : 's'}, matrices of ${model.snapshots?.length ?? 1} steps, opens at step ${model.snapshot.step})`);
}
