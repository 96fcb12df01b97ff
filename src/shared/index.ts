// What the CLI, the extension, the worker, the panel and the report all need, written once:
// number formatting, κ bands, words and units, safe text, CSV and JSON conventions, CSR lookups,
// a vector length. Pure TypeScript: no vscode, no DOM, no Node APIs.
export { DEFAULT_DIGITS, exactNumber, formatNumber, formatQuantity, formatTime, formatVec, type Notation } from './number';
export { COND_BAND_LABEL, DEFAULT_CONDITION_WARNING, condBand, condBandDescription, condBandLegend, condThresholds, conditionWarning, formatCond, isIllConditioned, WELL_CONDITIONED_BELOW, type CondBand, type CondContext, type CondFormat } from './kappa';
export { kappaOf, RUN_EXACT_COND_MAX_ROWS, type KappaInputs, type KappaSource, type StepKappa } from './stepKappa';
export { UNITS, WORDS, plural, type Unit } from './words';
export { safeText } from './text';
export { csvField, csvNumber, csvText, runCsv, runCsvHeader, type RunMeta, type RunRecord } from './csv';
export { jsonCond, jsonNumber, stringifyJson } from './json';
export { absRange, blockDiagonalCsr, csrEntry, csrFind, csrGet, csrLowerBound, csrToDense, csrToDenseFlat, type CsrArrays, type CsrView } from './csr';
export { norm3 } from './vec';
export { maxOf, minOf, pushAll } from './arrays';
