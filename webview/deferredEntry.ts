// Entry of dist/panel-deferred.js (and the first import of all.ts): hands the deferred parts
// (deferred.ts) to the panel's loader (load.ts) through a global, since the two scripts are
// separate bundles that share no module instances.
import * as parts from './deferred';

(globalThis as { __clDeferred?: typeof parts }).__clDeferred = parts;
