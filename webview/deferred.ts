// What the inspector's first paint does not need, in a script of its own (dist/panel-deferred.js,
// built from deferredEntry.ts): the 3D view (three.js) and every chart (chart.js), about four fifths
// of the panel's code. The panel (dist/panel.js) loads it after its first frame (load.ts); the
// standalone report's single script (dist/webview.js, all.ts) carries it inline.
export { SceneView3D } from './scene3d';
export { applyChartTheme, HistoryChart, LambdaChart, SpectrumChart } from './charts';
export { HISTORY_CHARTS } from './historySpecs';
export { ConvergenceChart, StepChart } from './contactCharts';
