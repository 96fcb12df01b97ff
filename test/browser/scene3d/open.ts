// Opening the 3D view's standalone test page (page.ts, bundled in memory) in headless Chromium with
// a software WebGL (SwiftShader), under the panel's CSP and a VS Code theme's variables; and the
// small helpers the 3D browser tests and the bench share (screen positions, pixels, screenshots).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../../src/panelHtml';
import { encodeForJson, type PanelModel } from '../../../src/protocol';
import { ROOT } from '../fixtures';
import { CHROMIUM, ORIGIN, shotPath, THEMES, type ThemeName } from '../harness';
import type { Api } from './page';

export type Rgb = [number, number, number];
export type Sel = { body?: string; constraint?: string; contact?: string };

/** Chromium's flags for a software WebGL 2 (SwiftShader through ANGLE) on a machine without a GPU. */
export const SOFTWARE_WEBGL = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

let bundle: { js: string; css: string } | undefined;
export async function buildPage(): Promise<{ js: string; css: string }> {
  if (bundle) return bundle;
  const r = await esbuild.build({
    entryPoints: [join(ROOT, 'test/browser/scene3d/page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  bundle = { js: r.outputFiles[0].text, css: readFileSync(join(ROOT, 'webview/scene3d/scene3d.css'), 'utf8') };
  return bundle;
}

export async function launch3d(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', ...SOFTWARE_WEBGL, '--disable-background-networking', '--no-first-run', '--font-render-hinting=none'],
  });
}

export interface ScenePage {
  page: Page;
  problems: string[];
  close(): Promise<void>;
}

/**
 * The test page under the panel's CSP with a theme's variables. `noWebGL`: every WebGL context
 * fails, as getContext returning null (true) or throwing ('throw').
 */
export async function openScene(browser: Browser, opts: { theme?: ThemeName; width?: number; height?: number; noWebGL?: boolean | 'throw' } = {}): Promise<ScenePage> {
  const { js, css } = await buildPage();
  const theme = THEMES[opts.theme ?? 'dark'];
  const context = await browser.newContext({ viewport: { width: opts.width ?? 900, height: opts.height ?? 600 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.text().startsWith('CSP:')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const nonce = `bm9uY2U${Math.floor(Math.random() * 1e9).toString(36)}`;
  const html = renderPanelHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/scene3d.js`, styleUri: `${ORIGIN}/scene3d.css`, title: '3D view test' });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    const path = url.startsWith(ORIGIN) ? new URL(url).pathname : '';
    if (path === '/page.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    if (path === '/scene3d.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: js });
    if (path === '/scene3d.css') return route.fulfill({ status: 200, contentType: 'text/css', body: css });
    problems.push(`request: ${url}`);
    return route.abort();
  });
  const params = JSON.stringify({ vars: theme.vars, bodyClass: theme.bodyClass, noWebGL: opts.noWebGL ?? false });
  await page.addInitScript(`(() => {
    const P = ${params};
    document.addEventListener('securitypolicyviolation', (e) => console.log('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));
    const apply = () => { if (!document.documentElement) return false; for (const [k, v] of Object.entries(P.vars)) document.documentElement.style.setProperty(k, v); return true; };
    if (!apply()) { const mo = new MutationObserver(() => { if (apply()) mo.disconnect(); }); mo.observe(document, { childList: true }); }
    document.addEventListener('DOMContentLoaded', () => {
      document.body.classList.add(P.bodyClass);
      if (P.bodyClass === 'vscode-high-contrast-light') document.body.classList.add('vscode-high-contrast');
      document.body.style.margin = '0';
      document.getElementById('app').style.padding = '8px';
    });
    if (P.noWebGL) {
      const orig = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        if (!/webgl/.test(type)) return orig.call(this, type, ...rest);
        if (P.noWebGL === 'throw') throw new Error('Could not create a WebGL context (forced by the test)');
        return null;
      };
    }
  })();`);
  await page.goto(`${ORIGIN}/page.html`);
  await page.waitForSelector('body[data-cl-ready="1"]', { state: 'attached', timeout: 15000 });
  return { page, problems, close: () => context.close() };
}

export async function create(p: ScenePage, model: PanelModel, opts: Record<string, unknown> = {}): Promise<{ available: boolean; firstPaintMs?: number }> {
  const text = encodeForJson(model);
  return p.page.evaluate(([t, o]) => window.cl3d.create(t, o as Parameters<Api['create']>[1]), [text, opts] as const);
}
export const screen = (p: ScenePage, s: Sel): Promise<{ x: number; y: number } | undefined> => p.page.evaluate((sel) => window.cl3d.screen(sel), s);
export const pixel = (p: ScenePage, x: number, y: number): Promise<Rgb> => p.page.evaluate(([a, b]) => window.cl3d.pixel(a, b), [x, y] as const);
export const canvasBox = async (p: ScenePage): Promise<{ x: number; y: number; width: number; height: number }> => (await p.page.locator('.cl3d-canvas').boundingBox())!;
export const distance = (a: Rgb, b: Rgb): number => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
export const hexRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/** A screenshot of the view (after two frames) under test-results/screenshots; returns its path. */
export async function shoot(p: ScenePage, name: string): Promise<string> {
  await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const file = shotPath(name);
  await p.page.locator('.cl3d').screenshot({ path: file });
  return file;
}
