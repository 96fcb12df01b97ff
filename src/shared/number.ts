// The one number formatter lives in the engine (src/engine/core/format.ts), which formats its own
// diagnostics with it and imports nothing from src/shared; re-exported here for the presentation code.
export { DEFAULT_DIGITS, exactNumber, formatNumber, formatQuantity, formatTime, formatVec, type Notation } from '../engine';
