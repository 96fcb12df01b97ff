// Entry of dist/webview.js: the whole panel in one script, for the standalone HTML report, which
// inlines it (src/report.ts; one self-contained file, offline). The deferred parts are registered
// first, so the loader (load.ts) finds them without fetching anything.
import './deferredEntry';
import './main';
