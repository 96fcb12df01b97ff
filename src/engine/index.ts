// The engine's public API. Pure TypeScript: runs in Node, the extension host, workers and browsers.
export { parseScene } from './scene/parse';
export { inspectScene, inspectParsed, simulateScene, simulateInspected, type SimulateOutput } from './pipeline';
export { Simulation, type SimulationOptions } from './simulation';
export { Codes, CodeDescriptions } from './diagnostics';
export type { InspectOptions, InspectResult, SimulationApi } from './api';
export type * from './result';
export type * from './types';
export type { SceneSpec, BodySpec, ConstraintSpec, SolverSettings, SourceMap, ParseResult, JsonPath } from './scene/types';
export type { ConstraintType, CoupledJoint, CouplingSpec } from './scene/types';
export type { ShapeSpec } from './collision/types';
export { DEFAULT_SOLVER } from './scene/fields';
