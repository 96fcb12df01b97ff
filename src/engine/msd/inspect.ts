// Step 0 of a scene in quaternion coordinates: msd-sim's system at the initial state, analysed by the
// seam, with the engine's analysis diagnostics (redundancy, κ, violation) on it and CL117 for what
// the formulation leaves out. A unit-quaternion row has no constraint in the file: its diagnostics
// land on its body, without the quick fix that would remove a file constraint.
import type { InspectResult } from '../api';
import { analysisDiagnostics, bodyRange } from '../analysis/findings';
import type { ParseResult } from '../scene/spec';
import type { Diagnostic } from '../types';
import { Codes } from '../core/codes';
import { buildMsdModel, msdInitialState } from './model';
import { msdSnapshot } from './system';

/** The body whose unit-quaternion row a diagnostic names, if it does. */
function quaternionBody(d: Diagnostic, names: ReadonlyMap<string, number>): number | undefined {
  const c = d.data?.constraint;
  return d.data?.constraintIndex === -1 && typeof c === 'string' ? names.get(c) : undefined;
}

export function inspectMsd(text: string, parse: ParseResult, sorted: (d: Diagnostic[]) => Diagnostic[]): InspectResult {
  const scene = parse.scene!;
  const sm = parse.sourceMap;
  const model = buildMsdModel(scene, sm);
  const first = msdSnapshot(model, msdInitialState(model), 0, 0, scene.gravity);
  if (!first.ok) {
    const bad: Diagnostic = { severity: 'error', code: Codes.nonFinite, message: `Step 0 (quaternion coordinates, msd-sim's system): ${first.message}. Nothing can be analysed or run from this state; fix the bodies' values.`, range: sm.rangeOf(['solver', 'coordinates']), data: { step: 0 } };
    const diagnostics = sorted([...parse.diagnostics, ...model.diagnostics, bad]);
    return { parse, diagnostics, hasErrors: true };
  }
  const snapshot = first.snapshot;
  const analysis = analysisDiagnostics(snapshot, text, sm, { conditionWarning: scene.solver.conditionWarning, violationTolerance: scene.solver.violationTolerance });
  const rowBody = new Map(model.rows.filter((r) => r.type === 'unit-quaternion').map((r) => [r.constraint, model.bodies[r.row.kind === 'unit-quaternion' ? r.row.body : 0].spec.index]));
  for (const d of analysis) {
    const body = quaternionBody(d, rowBody);
    if (body === undefined) continue;
    d.range = bodyRange(sm, body);
    delete d.fixes;
  }
  const diagnostics = [...parse.diagnostics, ...model.diagnostics, ...analysis];
  if (sm.decorate) for (let i = parse.diagnostics.length; i < diagnostics.length; i++) sm.decorate(diagnostics[i]);
  sorted(diagnostics);
  snapshot.diagnostics = diagnostics;
  return { parse, snapshot, diagnostics, hasErrors: diagnostics.some((d) => d.severity === 'error') };
}
