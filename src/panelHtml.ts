// The inspector page, shared by the extension's webview and the standalone HTML report.
// Pure function (no vscode, no DOM): the caller supplies URIs or inline assets.

interface PanelHtmlOptions {
  /** `webview.cspSource` in VS Code; '' (or omitted sources) for a self-contained report. */
  cspSource: string;
  /** A fresh random nonce (base64/hex, no quotes). */
  nonce: string;
  /** URI of dist/webview.js (ignored when `inlineScript` is given). */
  scriptUri: string;
  /** URI of dist/webview.css (ignored when `inlineStyle` is given). */
  styleUri: string;
  title: string;
  /** Bundled webview JS to inline (report mode). */
  inlineScript?: string;
  /** Bundled webview CSS to inline (report mode). */
  inlineStyle?: string;
  /** URI of dist/panel-deferred.js, named on the script (`data-deferred`) when the script is inlined in a webview. */
  deferredUri?: string;
  /** A PanelModel encoded with `encodeForJson`, embedded as `#cl-model` (report mode). */
  embeddedModel?: string;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Makes text safe inside a <script> element: no `</script`, no `<!--`. */
const escapeScriptText = (s: string): string => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

/** Makes JSON text safe inside <script type="application/json"> (JSON.parse-compatible). */
export const escapeJsonForHtml = (s: string): string => s.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Style text inside <style>: no `</style`. */
const escapeStyleText = (s: string): string => s.replace(/<\/(style)/gi, '<\\/$1');

/** The Content-Security-Policy of the page (exported for tests). */
export function panelCsp(cspSource: string, nonce: string): string {
  const src = cspSource.trim();
  const withSrc = (x: string): string => (src ? `${src} ${x}` : x);
  return [
    "default-src 'none'",
    `img-src ${withSrc('data:')}`,
    `style-src ${withSrc(`'nonce-${nonce}'`)}`,
    `script-src 'nonce-${nonce}'`,
    src ? `font-src ${src}` : "font-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderPanelHtml(opts: PanelHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(opts.nonce)) throw new Error('renderPanelHtml: invalid nonce');
  const nonce = opts.nonce;
  const csp = panelCsp(opts.cspSource, nonce);
  const style =
    opts.inlineStyle !== undefined
      ? `<style nonce="${nonce}">${escapeStyleText(opts.inlineStyle)}</style>`
      : `<link rel="stylesheet" nonce="${nonce}" href="${escapeHtml(opts.styleUri)}">`;
  const script =
    opts.inlineScript !== undefined
      ? `<script nonce="${nonce}"${opts.deferredUri !== undefined ? ` data-deferred="${escapeHtml(opts.deferredUri)}"` : ''}>${escapeScriptText(opts.inlineScript)}</script>`
      : `<script nonce="${nonce}" src="${escapeHtml(opts.scriptUri)}"></script>`;
  const model =
    opts.embeddedModel !== undefined ? `<script type="application/json" id="cl-model">${escapeJsonForHtml(opts.embeddedModel)}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)}</title>
${style}
</head>
<body>
<div id="app" class="cl-app" data-mode="${opts.embeddedModel !== undefined ? 'report' : 'panel'}"><p class="cl-loading" role="status">Loading Constraint Lens…</p></div>
${model}${script}
</body>
</html>
`;
}
