import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReportHtml, buildReportModel, reportGenerator, reportSnapshotSteps } from '../../src/report';
import { escapeJsonForHtml, panelCsp, renderPanelHtml } from '../../src/panelHtml';
import { decodeFromJson, type PanelModel, type SystemSnapshot } from '../../src/protocol';

function model(name = 'Tricky </script><script>alert(1)</script> & "quotes"'): PanelModel {
  const snapshot = {
    step: 0,
    t: 0,
    bodies: [],
    columnLabels: [],
    rows: [],
    constraints: [],
    J: { rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0), values: new Float64Array(0) },
    A: { rows: 0, cols: 0, rowPtr: Int32Array.of(0), colIdx: new Int32Array(0), values: new Float64Array(0) },
    lambda: Float64Array.of(Infinity),
    rank: { J: 0, rows: 0, dofs: 0 },
    cond: { A: null, scaled: null },
  } as unknown as SystemSnapshot;
  return { sceneName: name, fileName: 'x.scene.json', snapshot, history: [], plannedSteps: 1, dt: 0.01, diagnostics: [], sceneBodies: [] };
}

const assets = { js: 'console.log("</script> inside a string");\n//# sourceMappingURL=webview.js.map\n', css: 'body{color:red}\n/*# sourceMappingURL=webview.css.map */' };

test('buildReportHtml: one self-contained file with the CSP and the embedded model', () => {
  const m = model();
  const html = buildReportHtml(m, assets);
  assert.doesNotMatch(html, /src="https?:/i);
  assert.doesNotMatch(html, /href="https?:/i);
  assert.doesNotMatch(html, /<link\b/i, 'no external stylesheet');
  assert.doesNotMatch(html, /<script[^>]*\bsrc=/i, 'no external script');
  assert.doesNotMatch(html, /sourceMappingURL/);
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(csp, 'has a CSP meta tag');
  const policy = csp[1].replace(/&#39;/g, "'");
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /script-src 'nonce-[A-Za-z0-9]+'/);
  assert.match(policy, /style-src 'nonce-[A-Za-z0-9]+'/);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|https?:/);
  const nonce = /'nonce-([A-Za-z0-9]+)'/.exec(policy)![1];
  assert.ok(html.includes(`<script nonce="${nonce}">`), 'inline script carries the nonce');
  assert.ok(html.includes(`<style nonce="${nonce}">`), 'inline style carries the nonce');
  // Exactly one executable script, and the model cannot break out of its element.
  assert.equal(html.match(/<\/script>/g)?.length, 2);
  const json = /<script type="application\/json" id="cl-model">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(json, 'embedded model');
  const back = decodeFromJson<PanelModel>(json[1]);
  assert.equal(back.sceneName, m.sceneName);
  assert.equal(back.snapshot.lambda[0], Infinity);
  assert.ok(back.snapshot.J.rowPtr instanceof Int32Array);
  // The title is escaped.
  assert.match(html, /<title>Tricky &lt;\/script&gt;/);
});

test('renderPanelHtml (extension): URIs, cspSource and nonce', () => {
  const html = renderPanelHtml({ cspSource: 'https://x.vscode-cdn.net', nonce: 'abc123', scriptUri: 'https://x.vscode-cdn.net/dist/webview.js', styleUri: 'https://x.vscode-cdn.net/dist/webview.css', title: 'T' });
  assert.ok(html.includes('<script nonce="abc123" src="https://x.vscode-cdn.net/dist/webview.js"></script>'));
  assert.ok(html.includes('<link rel="stylesheet" nonce="abc123" href="https://x.vscode-cdn.net/dist/webview.css">'));
  assert.doesNotMatch(html, /id="cl-model"/);
  const csp = panelCsp('https://x.vscode-cdn.net', 'abc123');
  assert.equal(csp.split('; ')[0], "default-src 'none'");
  assert.ok(csp.includes("img-src https://x.vscode-cdn.net data:"));
  assert.ok(csp.includes("style-src https://x.vscode-cdn.net 'nonce-abc123'"));
  assert.ok(csp.includes("script-src 'nonce-abc123'"));
  assert.ok(csp.includes('font-src https://x.vscode-cdn.net'));
  assert.throws(() => renderPanelHtml({ cspSource: '', nonce: 'a"b', scriptUri: '', styleUri: '', title: '' }));
  assert.equal(escapeJsonForHtml('{"a":"</script>"}'), '{"a":"\\u003c/script>"}');
});

test('reportSnapshotSteps: all steps when small, first/last and a spread otherwise', () => {
  assert.deepEqual(reportSnapshotSteps(5, 2, 6), [0, 1, 2, 3, 4, 5]);
  const big = reportSnapshotSteps(10000, 30, 60);
  assert.equal(big[0], 0);
  assert.equal(big.at(-1), 10000);
  assert.ok(big.length <= 101 && big.length >= 2);
  const huge = reportSnapshotSteps(1000, 9000, 18000);
  assert.deepEqual(huge, [0, 1000]);
});

test('buildReportModel: one path for the CLI and the extension (sync or async snapshots), last step shown', async () => {
  const base = model('S');
  const at = (step: number) => ({ ...base.snapshot, step }) as SystemSnapshot;
  const asked: number[] = [];
  const sync = await buildReportModel(base, { currentStep: 5, snapshotAt: (k) => (asked.push(k), at(k)) }, 'gen');
  assert.deepEqual(asked, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(sync.snapshots?.map((s) => s.step), [0, 1, 2, 3, 4, 5]);
  assert.equal(sync.snapshot.step, 5);
  assert.equal(sync.generator, 'gen');
  assert.equal(base.snapshots, undefined, 'the base model is not modified');
  const async = await buildReportModel(base, { currentStep: 3, snapshotAt: async (k) => (k === 3 ? undefined : at(k)) }, 'gen');
  assert.deepEqual(async.snapshots?.map((s) => s.step), [0, 1, 2]);
  assert.equal(async.snapshot.step, 0, 'the last step could not be had: the base snapshot stays');
  const none = await buildReportModel(base, undefined, 'gen');
  assert.equal(none.snapshots, undefined);
  assert.equal(reportGenerator('1.2.3', 'CLI', new Date('2025-03-04T12:00:00Z')), 'Constraint Lens 1.2.3 (CLI), 2025-03-04');
});

test('renderPanelHtml (extension, inlined first script): the deferred bundle is named on the script, no resource to fetch before it runs', () => {
  const html = renderPanelHtml({
    cspSource: 'https://x.vscode-cdn.net',
    nonce: 'abc123',
    scriptUri: 'https://x.vscode-cdn.net/dist/panel.js',
    styleUri: 'https://x.vscode-cdn.net/dist/webview.css',
    deferredUri: 'https://x.vscode-cdn.net/dist/panel-deferred.js?a=1&b=2',
    inlineScript: 'var x = "</script>";',
    inlineStyle: 'body{color:red}',
    title: 'T',
  });
  assert.ok(html.includes('<script nonce="abc123" data-deferred="https://x.vscode-cdn.net/dist/panel-deferred.js?a=1&amp;b=2">var x = "<\\/script>";</script>'), html);
  assert.ok(html.includes('<style nonce="abc123">body{color:red}</style>'));
  assert.doesNotMatch(html, /src="|href="/, 'nothing linked');
});
