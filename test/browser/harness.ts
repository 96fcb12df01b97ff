// Loads the inspector page in headless Chromium the way VS Code would: renderPanelHtml with a
// webview-like origin, the theme as --vscode-* variables on <html> and a body class, and a stub
// `acquireVsCodeApi` that records posted messages and answers them from real engine output as the extension does (stubHost.ts).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../src/panelHtml';
import { encodeForJson, isWebviewMessage, type HostMessage, type WebviewMessage } from '../../src/protocol';
import { ROOT, type Fixture } from './fixtures';
import { createStubHost } from './stubHost';
import { DECODE_IN_PAGE, encodeForPage } from './wire';
import { THEMES, type ThemeName } from './themes';

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

export { THEMES, type ThemeName } from './themes';

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
  /** Resolves once the stub host has sent everything (model, streamed records, replies) and the panel acknowledged it. */
  hostIdle(timeoutMs?: number): Promise<void>;
  waitForPost(pred: (m: WebviewMessage) => boolean, timeoutMs?: number): Promise<WebviewMessage>;
}

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
  opts: { theme?: ThemeName; width?: number; height?: number; initialState?: unknown; snapshotDelayMs?: number; webviewDir?: string; beforeLoad?: (page: Page) => Promise<void> } = {},
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
      await deliver(m, as, true);
    },
    hostIdle: (timeoutMs) => host.idle(timeoutMs),
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

  // The text goes through a binding, not inside the evaluated script: the DevTools protocol
  // keeps every evaluated script's source, which would count in the page's heap.
  const outbox = new Map<number, string>();
  let nextId = 0;
  /** Posts `m` to the page as a `message` event and renders it; `timed`: note the panel's time to apply and render it (window.__clApplyMs). */
  const deliver = (m: HostMessage, as: 'object' | 'json', timed: boolean): Promise<unknown> => {
    const id = nextId++;
    outbox.set(id, as === 'object' ? encodeForPage(m) : encodeForJson(m));
    return page.evaluate(`window.__clPull(${id}).then((text) => {
      const decode = ${DECODE_IN_PAGE};
      const data = ${as === 'object' ? 'decode(text)' : 'text'};
      const t0 = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data }));
      // the cards render once per frame (webview/frame.ts): render now, so the page shows the message when this resolves
      window.__clRender?.();
      ${timed ? '(window.__clApplyMs = window.__clApplyMs || []).push(performance.now() - t0);' : ''}
    })`);
  };
  await page.exposeFunction('__clPull', (id: number) => {
    const text = outbox.get(id) ?? 'null';
    outbox.delete(id);
    return text;
  });
  // Host side (stubHost.ts): the extension's feed answers `ready` with the model and streams the
  // run after it. What it posts while handling a message goes back as that call's answer, the
  // rest (timed history, slow snapshots) as messages of their own; VS Code posts objects.
  let answers: { as: 'object'; text: string }[] | undefined;
  const host = createStubHost(
    fixture,
    (m) => {
      if (answers) {
        answers.push({ as: 'object', text: encodeForPage(m) });
        return true;
      }
      return deliver(m, 'object', false).then(
        () => true,
        () => false, // the page navigated or closed: the feed waits for the next `ready`
      );
    },
    { snapshotDelayMs: opts.snapshotDelayMs },
  );
  page.on('close', () => host.dispose());
  await page.exposeFunction('__clHost', (text: string) => {
    const m: unknown = JSON.parse(text);
    if (!isWebviewMessage(m)) {
      res.invalidPosts.push(m);
      return [];
    }
    res.posted.push(m);
    answers = [];
    try {
      host.receive(m);
      return answers;
    } finally {
      answers = undefined;
    }
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
          for (const a of answers) {
            // the answer to ready: when it reached the page, and the time to decode it (bench/ui's phases)
            const t0 = performance.now();
            const data = a.as === 'object' ? decode(a.text) : a.text;
            if (m.type === 'ready' && window.__clReadyAnswer === undefined) window.__clReadyAnswer = { at: t0, decodeMs: performance.now() - t0 };
            window.dispatchEvent(new MessageEvent('message', { data }));
          }
        });
      },
      getState: () => saved,
      setState: (s) => { saved = s; window.__clStates.push(s); },
    });
  })();`);
  // beforeLoad: bench/ui lets the new browser window's own start-up work finish before the cold load
  if (opts.beforeLoad) await opts.beforeLoad(page);
  await page.goto(`${ORIGIN}/panel.html`);
  await page.waitForSelector('body[data-cl-ready="1"]', { timeout: 15000, state: 'attached' }).catch((e: Error) => {
    throw new Error(`${e.message}\nconsole errors: ${res.consoleErrors.join('\n')}\nCSP: ${res.cspViolations.join('\n')}\nposted: ${JSON.stringify(res.posted)}`);
  });
  await deferredLoaded(page, res);
  await host.idle();
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
export async function openFile(browser: Browser, file: string, opts: { dark?: boolean } = {}): Promise<Omit<PanelPage, 'send' | 'hostIdle' | 'waitForPost' | 'posted' | 'invalidPosts'>> {
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
