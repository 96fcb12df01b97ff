// Loads the inspector page in headless Chromium the way VS Code would: renderPanelHtml with a
// webview-like origin, the theme as --vscode-* variables on <html> and a body class, and a stub
// `acquireVsCodeApi` that records posted messages and answers them from real engine output.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../src/panelHtml';
import { encodeForJson, isWebviewMessage, type HostMessage, type WebviewMessage } from '../../src/protocol';
import { ROOT, type Fixture } from './fixtures';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ORIGIN = 'https://webview.test';
export const SHOTS = join(ROOT, 'test-results', 'screenshots');

let built = false;
/** Bundles the webview once per test process. */
export function ensureBuilt(): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  built = true;
}

/**
 * A software WebGL 2 (SwiftShader through ANGLE) for the 3D scene view: headless Chromium has no
 * GPU here, and recent Chromium no longer falls back to SwiftShader for WebGL unless asked.
 */
export const WEBGL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

/** `extraArgs`: more Chromium switches (bench/ui measures the pan with and without GPU compositing). */
export async function launch(extraArgs: readonly string[] = []): Promise<{ browser: Browser; close: () => Promise<void> }> {
  // launch() gives every browser a fresh temporary profile (user-data-dir), removed on close.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      ...WEBGL_ARGS,
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      '--font-render-hinting=none',
      // exact performance.memory figures (the run-length tests report the panel's heap)
      '--enable-precise-memory-info',
      '--js-flags=--expose-gc',
      ...extraArgs,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
    },
  };
}

// VS Code's default Light Modern / Dark Modern values of the variables the panel uses.
const COMMON: Record<string, string> = {
  '--vscode-font-family': "-apple-system, BlinkMacSystemFont, 'Segoe WPC', 'Segoe UI', 'Ubuntu', 'Droid Sans', sans-serif",
  '--vscode-font-size': '13px',
  '--vscode-font-weight': 'normal',
  '--vscode-editor-font-family': "'Droid Sans Mono', 'monospace', monospace",
};
export type ThemeName = 'light' | 'dark' | 'hc-dark' | 'hc-light';
export const THEMES: Record<ThemeName, { bodyClass: string; kind: string; vars: Record<string, string> }> = {
  light: {
    bodyClass: 'vscode-light',
    kind: 'vscode-light',
    vars: {
      ...COMMON,
      '--vscode-editor-background': '#ffffff',
      '--vscode-editor-foreground': '#3b3b3b',
      '--vscode-foreground': '#3b3b3b',
      '--vscode-descriptionForeground': '#6e6e6e',
      '--vscode-panel-border': '#e5e5e5',
      '--vscode-widget-border': '#e5e5e5',
      '--vscode-sideBar-background': '#f8f8f8',
      '--vscode-editorWidget-background': '#f8f8f8',
      '--vscode-focusBorder': '#005fb8',
      '--vscode-textLink-foreground': '#005fb8',
      '--vscode-button-background': '#005fb8',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#0258a8',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-button-secondaryHoverBackground': '#cccccc',
      '--vscode-button-border': '#0000001a',
      '--vscode-badge-background': '#cccccc',
      '--vscode-badge-foreground': '#3b3b3b',
      '--vscode-toolbar-hoverBackground': 'rgba(184, 184, 184, 0.31)',
      '--vscode-list-hoverBackground': '#f2f2f2',
      '--vscode-list-inactiveSelectionBackground': '#e4e6f1',
      '--vscode-editorError-foreground': '#e51400',
      '--vscode-editorWarning-foreground': '#bf8803',
      '--vscode-editorInfo-foreground': '#1a85ff',
      '--vscode-testing-iconPassed': '#388a34',
      '--vscode-charts-red': '#e51400',
      '--vscode-charts-blue': '#1a85ff',
      '--vscode-charts-green': '#388a34',
      '--vscode-charts-yellow': '#bf8803',
      '--vscode-charts-orange': '#d18616',
      '--vscode-charts-purple': '#652d90',
      '--vscode-charts-foreground': '#3b3b3b',
      '--vscode-charts-lines': 'rgba(59, 59, 59, 0.5)',
      '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.16)',
      '--vscode-editorHoverWidget-background': '#f8f8f8',
      '--vscode-editorHoverWidget-foreground': '#3b3b3b',
      '--vscode-editorHoverWidget-border': '#c8c8c8',
      '--vscode-panelTitle-activeBorder': '#005fb8',
      '--vscode-panelTitle-activeForeground': '#3b3b3b',
      '--vscode-panelTitle-inactiveForeground': '#3b3b3b',
    },
  },
  dark: {
    bodyClass: 'vscode-dark',
    kind: 'vscode-dark',
    vars: {
      ...COMMON,
      '--vscode-editor-background': '#1f1f1f',
      '--vscode-editor-foreground': '#cccccc',
      '--vscode-foreground': '#cccccc',
      '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-panel-border': '#2b2b2b',
      '--vscode-widget-border': '#313131',
      '--vscode-sideBar-background': '#181818',
      '--vscode-editorWidget-background': '#202020',
      '--vscode-focusBorder': '#0078d4',
      '--vscode-textLink-foreground': '#4daafc',
      '--vscode-button-background': '#0078d4',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#026ec1',
      '--vscode-button-secondaryBackground': '#313131',
      '--vscode-button-secondaryForeground': '#cccccc',
      '--vscode-button-secondaryHoverBackground': '#3c3c3c',
      '--vscode-button-border': '#ffffff12',
      '--vscode-badge-background': '#616161',
      '--vscode-badge-foreground': '#f8f8f8',
      '--vscode-toolbar-hoverBackground': 'rgba(90, 93, 94, 0.31)',
      '--vscode-list-hoverBackground': '#2a2d2e',
      '--vscode-list-inactiveSelectionBackground': '#37373d',
      '--vscode-editorError-foreground': '#f14c4c',
      '--vscode-editorWarning-foreground': '#cca700',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-testing-iconPassed': '#73c991',
      '--vscode-charts-red': '#f14c4c',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-yellow': '#cca700',
      '--vscode-charts-orange': '#d18616',
      '--vscode-charts-purple': '#b180d7',
      '--vscode-charts-foreground': '#cccccc',
      '--vscode-charts-lines': 'rgba(204, 204, 204, 0.5)',
      '--vscode-widget-shadow': 'rgba(0, 0, 0, 0.36)',
      '--vscode-editorHoverWidget-background': '#202020',
      '--vscode-editorHoverWidget-foreground': '#cccccc',
      '--vscode-editorHoverWidget-border': '#454545',
      '--vscode-panelTitle-activeBorder': '#0078d4',
      '--vscode-panelTitle-activeForeground': '#cccccc',
      '--vscode-panelTitle-inactiveForeground': '#9d9d9d',
    },
  },
  // Dark High Contrast (hc-black) and Light High Contrast (hc-light): the colour registry's hcDark /
  // hcLight defaults. Colours the registry leaves null in a theme (hcDark: button.background,
  // button.hoverBackground, button.secondaryBackground, list.hoverBackground,
  // list.inactiveSelectionBackground, toolbar.hoverBackground, widget.shadow; hcLight: the secondary
  // hover and the shadow) are not emitted as variables at all, exactly as in VS Code, so the
  // panel's fallbacks are exercised too.
  'hc-dark': {
    bodyClass: 'vscode-high-contrast',
    kind: 'vscode-high-contrast',
    vars: {
      ...COMMON,
      '--vscode-editor-background': '#000000',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-foreground': '#ffffff',
      '--vscode-descriptionForeground': '#ffffffb3',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-focusBorder': '#f38518',
      '--vscode-panel-border': '#6fc3df',
      '--vscode-widget-border': '#6fc3df',
      '--vscode-sideBar-background': '#000000',
      '--vscode-editorWidget-background': '#0c141f',
      '--vscode-editorWidget-border': '#6fc3df',
      '--vscode-textLink-foreground': '#21a6ff',
      '--vscode-textLink-activeForeground': '#21a6ff',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-button-border': '#6fc3df',
      '--vscode-badge-background': '#000000',
      '--vscode-badge-foreground': '#ffffff',
      '--vscode-input-background': '#000000',
      '--vscode-input-foreground': '#ffffff',
      '--vscode-input-border': '#6fc3df',
      '--vscode-inputOption-activeBorder': '#6fc3df',
      '--vscode-list-focusOutline': '#f38518',
      '--vscode-list-activeSelectionForeground': '#ffffff',
      '--vscode-toolbar-hoverOutline': '#f38518',
      '--vscode-editorError-foreground': '#f48771',
      '--vscode-errorForeground': '#f48771',
      '--vscode-editorWarning-foreground': '#ffd370',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-testing-iconPassed': '#73c991',
      '--vscode-charts-red': '#f48771',
      '--vscode-charts-blue': '#3794ff',
      '--vscode-charts-green': '#89d185',
      '--vscode-charts-yellow': '#ffd370',
      '--vscode-charts-orange': '#ab5a00',
      '--vscode-charts-purple': '#b180d7',
      '--vscode-charts-foreground': '#ffffff',
      '--vscode-charts-lines': '#ffffff80',
      '--vscode-editorHoverWidget-background': '#0c141f',
      '--vscode-editorHoverWidget-foreground': '#ffffff',
      '--vscode-editorHoverWidget-border': '#6fc3df',
      '--vscode-panelTitle-activeBorder': '#6fc3df',
      '--vscode-panelTitle-activeForeground': '#ffffff',
      '--vscode-panelTitle-inactiveForeground': '#ffffff',
    },
  },
  'hc-light': {
    bodyClass: 'vscode-high-contrast-light',
    kind: 'vscode-high-contrast-light',
    vars: {
      ...COMMON,
      '--vscode-editor-background': '#ffffff',
      '--vscode-editor-foreground': '#292929',
      '--vscode-foreground': '#292929',
      '--vscode-descriptionForeground': '#292929b3',
      '--vscode-contrastBorder': '#0f4a85',
      '--vscode-contrastActiveBorder': '#006bbd',
      '--vscode-focusBorder': '#006bbd',
      '--vscode-panel-border': '#0f4a85',
      '--vscode-widget-border': '#0f4a85',
      '--vscode-sideBar-background': '#ffffff',
      '--vscode-editorWidget-background': '#ffffff',
      '--vscode-editorWidget-border': '#0f4a85',
      '--vscode-textLink-foreground': '#0f4a85',
      '--vscode-textLink-activeForeground': '#0f4a85',
      '--vscode-button-background': '#0f4a85',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#0f4a85',
      '--vscode-button-secondaryBackground': '#ffffff',
      '--vscode-button-secondaryForeground': '#292929',
      '--vscode-button-border': '#0f4a85',
      '--vscode-badge-background': '#0f4a85',
      '--vscode-badge-foreground': '#ffffff',
      '--vscode-input-background': '#ffffff',
      '--vscode-input-foreground': '#292929',
      '--vscode-input-border': '#0f4a85',
      '--vscode-inputOption-activeBorder': '#007acc',
      '--vscode-list-hoverBackground': '#ffffff1a',
      '--vscode-list-activeSelectionBackground': '#0f4a851a',
      '--vscode-list-inactiveSelectionBackground': '#0f4a851a',
      '--vscode-list-focusOutline': '#006bbd',
      '--vscode-toolbar-hoverOutline': '#006bbd',
      '--vscode-editorError-foreground': '#b5200d',
      '--vscode-errorForeground': '#b5200d',
      '--vscode-editorWarning-foreground': '#895503',
      '--vscode-editorInfo-foreground': '#1a85ff',
      '--vscode-testing-iconPassed': '#007100',
      '--vscode-charts-red': '#b5200d',
      '--vscode-charts-blue': '#1a85ff',
      '--vscode-charts-green': '#374e06',
      '--vscode-charts-yellow': '#895503',
      '--vscode-charts-orange': '#0f4a85',
      '--vscode-charts-purple': '#652d90',
      '--vscode-charts-foreground': '#292929',
      '--vscode-charts-lines': '#29292980',
      '--vscode-editorHoverWidget-background': '#ffffff',
      '--vscode-editorHoverWidget-foreground': '#292929',
      '--vscode-editorHoverWidget-border': '#0f4a85',
      '--vscode-panelTitle-activeBorder': '#b5200d',
      '--vscode-panelTitle-activeForeground': '#292929',
      '--vscode-panelTitle-inactiveForeground': '#292929',
    },
  },
};

export interface PanelPage {
  page: Page;
  /** Messages the webview posted (validated with isWebviewMessage in the host stub). */
  posted: WebviewMessage[];
  invalidPosts: unknown[];
  cspViolations: string[];
  consoleErrors: string[];
  /** Requests to anything but the page's own origin (blocked). */
  externalRequests: string[];
  /** Send a host message to the webview, as an object (typed arrays) or as encodeForJson text. */
  send(m: HostMessage, as?: 'object' | 'json'): Promise<void>;
  waitForPost(pred: (m: WebviewMessage) => boolean, timeoutMs?: number): Promise<WebviewMessage>;
}

/** In-page reviver identical to decodeFromJson (the stub has no module system). */
const DECODE_IN_PAGE = `(text) => JSON.parse(text, (_k, v) => {
  if (v && typeof v === 'object') {
    if (Array.isArray(v.__f64)) return Float64Array.from(v.__f64, (x) => typeof x === 'number' ? x : Number(x));
    if (Array.isArray(v.__i32)) return Int32Array.from(v.__i32);
    if (typeof v.__num === 'string') return Number(v.__num);
  }
  return v;
})`;

/** Records everything a page does that a CSP-clean, offline page must not do. */
function watch(page: Page, out: Pick<PanelPage, 'cspViolations' | 'consoleErrors' | 'externalRequests'>): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error') out.consoleErrors.push(msg.text());
    if (msg.text().startsWith('CSP:')) out.cspViolations.push(msg.text());
  });
  page.on('pageerror', (e) => out.consoleErrors.push(`pageerror: ${e.message}`));
}

const CSP_LISTENER = `document.addEventListener('securitypolicyviolation', (e) => {
  console.log('CSP: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + e.lineNumber);
});`;

export async function openPanel(
  browser: Browser,
  fixture: Fixture,
  opts: { theme?: ThemeName; width?: number; height?: number; initialState?: unknown; snapshotDelayMs?: number; webviewDir?: string } = {},
): Promise<PanelPage> {
  ensureBuilt();
  const theme = THEMES[opts.theme ?? 'light'];
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1400, height: opts.height ?? 1000 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const res: PanelPage = {
    page,
    posted: [],
    invalidPosts: [],
    cspViolations: [],
    consoleErrors: [],
    externalRequests: [],
    send: async (m, as = 'object') => {
      // The text goes through a binding, not inside the evaluated script: the DevTools protocol
      // keeps every evaluated script's source, which would count in the page's heap.
      outbox.push(encodeForJson(m));
      await page.evaluate(`window.__clPull().then((text) => {
        const decode = ${DECODE_IN_PAGE};
        const data = ${as === 'object' ? 'decode(text)' : 'text'};
        const t0 = performance.now();
        window.dispatchEvent(new MessageEvent('message', { data }));
        (window.__clApplyMs = window.__clApplyMs || []).push(performance.now() - t0);
      })`);
    },
    waitForPost: async (pred, timeoutMs = 5000) => {
      const t0 = Date.now();
      let seen = 0;
      while (Date.now() - t0 < timeoutMs) {
        for (; seen < res.posted.length; seen++) if (pred(res.posted[seen])) return res.posted[seen];
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`timed out waiting for a posted message; got ${JSON.stringify(res.posted)}`);
    },
  };
  watch(page, res);

  const nonce = 'dGVzdG5vbmNl' + Math.floor(Math.random() * 1e9).toString(36);
  // webviewDir: another build of the panel (bench/ui --baseline compares two builds in one run);
  // a build from before dist/panel.js (the first-paint script, which loads dist/panel-deferred.js)
  // had the whole panel in dist/webview.js.
  const dist = opts.webviewDir ?? join(ROOT, 'dist');
  const script = existsSync(join(dist, 'panel.js')) ? 'panel.js' : 'webview.js';
  const html = renderPanelHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/dist/${script}`, styleUri: `${ORIGIN}/dist/webview.css`, title: 'Constraint Lens' });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (!url.startsWith(ORIGIN)) {
      res.externalRequests.push(url);
      return route.abort();
    }
    const path = new URL(url).pathname;
    if (path === '/panel.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    // the panel's scripts and style sheet, as VS Code serves them from the extension's dist/
    const file = /^\/dist\/([\w-]+\.(?:js|css))$/.exec(path)?.[1];
    if (file && existsSync(join(dist, file))) {
      return route.fulfill({ status: 200, contentType: file.endsWith('.js') ? 'text/javascript' : 'text/css', body: readFileSync(join(dist, file)) });
    }
    res.externalRequests.push(url);
    return route.fulfill({ status: 404, body: '' });
  });

  const outbox: string[] = [];
  await page.exposeFunction('__clPull', () => outbox.shift() ?? 'null');
  // Host side: answers `ready` with the model and `requestSnapshot` with the engine's snapshot.
  await page.exposeFunction('__clHost', async (text: string) => {
    const m: unknown = JSON.parse(text);
    if (!isWebviewMessage(m)) {
      res.invalidPosts.push(m);
      return [];
    }
    res.posted.push(m);
    if (m.type === 'ready') return [{ as: 'json', text: encodeForJson({ type: 'model', model: fixture.model } satisfies HostMessage) }];
    if (m.type === 'requestSnapshot') {
      if (opts.snapshotDelayMs) await new Promise((r) => setTimeout(r, opts.snapshotDelayMs));
      return [{ as: 'object', text: encodeForJson({ type: 'snapshot', snapshot: fixture.snapshotAt(m.step) } satisfies HostMessage) }];
    }
    return [];
  });
  // A string, not a function: tsx would wrap nested functions in a `__name` helper the page lacks.
  const params = JSON.stringify({ vars: theme.vars, bodyClass: theme.bodyClass, kind: theme.kind, state: opts.initialState ?? null });
  await page.addInitScript(`(() => {
    const P = ${params};
    const decode = ${DECODE_IN_PAGE};
    ${CSP_LISTENER}
    // VS Code sets the variables on <html> before any script runs; <html> may not exist yet here.
    const applyVars = () => {
      const root = document.documentElement;
      if (!root) return false;
      for (const [k, v] of Object.entries(P.vars)) root.style.setProperty(k, v);
      return true;
    };
    if (!applyVars()) {
      const mo = new MutationObserver(() => { if (applyVars()) mo.disconnect(); });
      mo.observe(document, { childList: true });
    }
    document.addEventListener('DOMContentLoaded', () => {
      document.body.classList.add(P.bodyClass);
      // VS Code's webview index.html also adds vscode-high-contrast to HC Light, for compatibility.
      if (P.bodyClass === 'vscode-high-contrast-light') document.body.classList.add('vscode-high-contrast');
      document.body.dataset.vscodeThemeKind = P.kind;
    });
    let saved = P.state === null ? undefined : P.state;
    window.__clStates = [];
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => {
        // when the page asked for its model (bench/ui's first-paint phases)
        if (m && m.type === 'ready' && window.__clReadyPostedAt === undefined) window.__clReadyPostedAt = performance.now();
        window.__clHost(JSON.stringify(m)).then((answers) => {
          for (const a of answers) window.dispatchEvent(new MessageEvent('message', { data: a.as === 'object' ? decode(a.text) : a.text }));
        });
      },
      getState: () => saved,
      setState: (s) => { saved = s; window.__clStates.push(s); },
    });
  })();`);
  await page.goto(`${ORIGIN}/panel.html`);
  await page.waitForSelector('body[data-cl-ready="1"]', { timeout: 15000, state: 'attached' }).catch((e: Error) => {
    throw new Error(`${e.message}\nconsole errors: ${res.consoleErrors.join('\n')}\nCSP: ${res.cspViolations.join('\n')}\nposted: ${JSON.stringify(res.posted)}`);
  });
  await deferredLoaded(page, res);
  await settle(page);
  return res;
}

/**
 * Waits until the panel's deferred parts (the 3D view and the charts, webview/load.ts) are loaded
 * and the cards on the page have made theirs: `body[data-cl-deferred="1"]`. A build from before
 * they were split off never sets it: nothing to wait for there.
 */
async function deferredLoaded(page: Page, res: Pick<PanelPage, 'consoleErrors' | 'cspViolations'>): Promise<void> {
  const split = (await page.evaluate(`!!document.querySelector('script[src$="/panel.js"]')`)) as boolean;
  if (!split) return;
  const state = await page
    .waitForSelector('body[data-cl-deferred]', { timeout: 15000, state: 'attached' })
    .then((el) => el.getAttribute('data-cl-deferred'))
    .catch((e: Error) => {
      throw new Error(`${e.message}\nconsole errors: ${res.consoleErrors.join('\n')}\nCSP: ${res.cspViolations.join('\n')}`);
    });
  if (state !== '1') throw new Error(`the panel's deferred parts did not load\nconsole errors: ${res.consoleErrors.join('\n')}\nCSP: ${res.cspViolations.join('\n')}`);
}

/** Waits for two animation frames (canvas redraws are rAF-coalesced). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** Opens a standalone HTML file from file:// with every network request blocked and recorded. */
export async function openFile(browser: Browser, file: string, opts: { dark?: boolean } = {}): Promise<Omit<PanelPage, 'send' | 'waitForPost' | 'posted' | 'invalidPosts'>> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1, colorScheme: opts.dark ? 'dark' : 'light' });
  const page = await context.newPage();
  const res = { page, cspViolations: [] as string[], consoleErrors: [] as string[], externalRequests: [] as string[] };
  watch(page, res);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://') && url.endsWith(file.split('/').pop()!)) return route.continue();
    res.externalRequests.push(url);
    return route.abort();
  });
  await page.addInitScript(CSP_LISTENER);
  await page.goto(`file://${file}`);
  await page.waitForSelector('body[data-cl-ready="1"]', { timeout: 15000, state: 'attached' }).catch((e: Error) => {
    throw new Error(`${e.message}\nconsole errors: ${res.consoleErrors.join('\n')}\nCSP: ${res.cspViolations.join('\n')}`);
  });
  await settle(page);
  return res;
}

export function shotPath(name: string): string {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, `${name}.png`);
}

/** The browser suites never skip themselves: without Chromium they fail with how to get it. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`);
}
