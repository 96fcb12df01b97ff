// The words every surface spells (∞, NaN, units) live in the engine (src/engine/core/words.ts), whose
// number formatter uses them; re-exported here for the presentation code.
export { UNITS, WORDS, plural, type Unit } from '../engine';
