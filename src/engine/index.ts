// The engine's only door: code outside src/engine/ imports from here and nowhere else (ESLint
// `no-restricted-imports` enforces it; white-box unit tests of the internals are the exception).
// Also the published library entry `constraint-lens/engine` (dist/engine.js, docs/engine-api.md).
// Pure TypeScript: runs in Node, the extension host, workers and browsers.

// Scene text → validated scene, diagnostics and the source map.
export { parseScene } from './scene/parse';
export { emptySourceMap } from './scene/text';
export { DEFAULT_SOLVER } from './scene/fields';
// Which closed form a chain of hinges and slides has (the importer checks MuJoCo's joints with it).
export { classifyJointChain, type ChainJointInput, type ChainPattern } from './scene/chainPattern';
export type {
  ActuatorSpec,
  ActivationSpec,
  JointDriveSpec,
  GroupHingeSpec,
  BodySpec,
  ChainJointSpec,
  ConstraintSpec,
  ConstraintType,
  CoupledJoint,
  FluidSpec,
  CouplingSpec,
  Formulation,
  JsonPath,
  NotSimulatedCategory,
  ParseResult,
  SceneSpec,
  SolverSettings,
  SourceMap,
  Stabilization,
  TendonSpec,
} from './scene/spec';

// The pipeline (inspect step 0, run N steps) and the stepping simulation with its history.
export { inspectScene, inspectParsed, simulateScene, simulateInspected, createSimulation, internalError, type RunOptions, type SimulateOutput } from './pipeline';
export { Simulation, type SimulationOptions } from './stepping/simulation';
// A hinge's or slider's coordinate (q, q̇) from the bodies' states of a run (next to a joint-space simulator's).
export { jointCoordinateReader, type BodyKinematics } from './model/jointReader';
export { chainHasCoordinates } from './model/chainCoordinate';
// The hinge and slider coordinates a constraint carries (its own, a universal's or ball's hinges, a chain's joints).
export { jointsOf } from './scene/hingeGroups';
export type { InspectOptions, InspectResult, SimulationApi } from './api';
export { stepWithinBudget, type TimeBudget } from './guards/budget';
// Which integrator runs, beside the one the source model asked for; what an actuator's force is.
export { integratorInfo, type IntegratorInfo } from './model/integrator';
export { actuatorForce } from './model/forces';
export { nextActivation } from './model/activation';
// MuJoCo's fluid forces on the bodies of a scene with a `fluid`, and an ellipsoid's added masses.
export { addedMass, buildFluid, type FluidForces } from './model/fluid';
// Limits on any input: text length, bodies, constraints, steps, history (docs/cli.md "Limits").
export { DEFAULT_LIMITS, LIMIT_NAMES, parseLimits, resolveLimits, type Limits } from './core/inputLimits';

// Solfec's W in 3×3 blocks W_αβ per pair of local frames, with the seed's sign rule (docs/formulas.md).
export { assembleWBlocks, wBlocks, type WBlock, type WBlocks, type WFrame } from './analysis/wBlocks';
// The linear stability of the stabilised constraint error (docs/divergence.md).
export { recurrenceOf, stableRanges, stableGains, spectralRadius2, type Recurrence, type StableRanges } from './analysis/stability';

// What the engine produces, its diagnostics and their stable codes.
export { Codes, CodeDescriptions, type Code } from './core/codes';
// How every surface spells a number, κ and its band, and reads a CSR matrix (the presentation code in
// src/shared re-exports these: the engine formats its own diagnostics with them).
export { DEFAULT_DIGITS, exactNumber, formatNumber, formatQuantity, formatTime, formatVec, type Notation } from './core/format';
export {
  COND_BAND_LABEL,
  DEFAULT_CONDITION_WARNING,
  WELL_CONDITIONED_BELOW,
  condBand,
  condBandDescription,
  condBandLegend,
  condThresholds,
  conditionWarning,
  formatCond,
  isIllConditioned,
  type CondBand,
  type CondContext,
  type CondFormat,
} from './core/kappa';
export { UNITS, WORDS, plural, type Unit } from './core/words';
export { absRange, blockDiagonalCsr, csrEntry, csrFind, csrGet, csrLowerBound, csrToDense, csrToDenseFlat, type CsrArrays, type CsrView } from './core/csr';
export type * from './result';
export type * from './types';

// Contacts: shapes, detection and what the contact solvers report.
export { detectContacts } from './collision/detect';
export { contactSoft, type SoftParams } from './collision/solmix';
export type * from './scene/contactSpec';
export type * from './collision/contacts';
export { stepNonlinear, solveContactsPgs, stepVelocity, defaultNonlinearSettings, defaultVelocitySettings, type NewtonReport, type PgsReport, type NonlinearSettings, type VelocitySettings } from './contact';
// Contacts in a run: the finite cone-ratio convention of ContactReport.
export { CONE_RATIO_MAX, finiteConeRatio } from './contact/contactReports';

// The seam: the constrained system of one step from any producer (the engine, MuJoCo, a trace file)
// and the analysis every producer's system gets.
export type { ConstrainedSystem, SystemIteration, SystemMass, SystemRow, SystemSource } from './system/contract';
export { analyseSystem, massInverse, SYSTEM_DENSE_LIMIT, type SystemAnalysis, type SystemAnalysisFailure, type SystemAnalysisOptions } from './system/analyse';
export { systemOfSnapshot } from './system/engineProducer';
export { snapshotOfSystem } from './system/snapshot';
// Small vector, quaternion ([x, y, z, w], scalar last) and row-major 3×3 helpers: the importer and the
// 3D view use the engine's own rather than copies that could disagree on a convention.
export { cross, dot, mat3MulVec, mat3TMulVec, norm, quatConj, quatMul, quatRotateInv, quatToMat3, scale, sub } from './core/math';
// Trace files of other solvers (.npz, Axion's and FCLib's HDF5) as a third producer of the seam.
export { readTrace, type ReadTraceOptions } from './trace/read';
export { analyseTrace, type TraceAnalysis, type TraceAnalysisOptions, type TraceIterationSummary, type TraceStepSummary } from './trace/analyse';
export { exportTraceNpz } from './trace/export';
export { readNpy, writeNpy, writeNpyStrings, type NpyArray } from './trace/npy';
export { isHdf5, type Hdf5File, type Hdf5Node, type Hdf5Open } from './trace/hdf5';
export { DEFAULT_TRACE_LIMITS, type TraceContact, type TraceFormat, type TraceIteration, type TraceKeys, type TraceLimits, type TraceReadResult, type TraceSource } from './trace/source';
