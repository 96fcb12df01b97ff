// Drives the workbench UI as a person would: Quick Open, the command palette, the inspector
// webview, the Problems panel; screenshots under test-results/e2e/.
import { decodePng, inkStats } from './png.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function openWorkbench(page, server, folder, { log = console.log } = {}) {
  await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
  log('workbench ready, explorer populated');
  await sleep(1000);
}

/**
 * Opens a quick input with `key`, sets its whole text at once (one filter pass, not one per
 * key) and waits for `row` to match. Retries with a fresh quick input: the palette lists the
 * commands whose when-clause held when it opened, and right after a scene opens the extension may
 * still be activating or setting its context key (constraintLens.sceneActive).
 */
async function quickPick(page, key, text, rowSelector, rowText, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  const input = page.locator('.quick-input-widget input').first();
  let lastError;
  for (let attempt = 1; Date.now() < deadline; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press(key);
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(text, { timeout: 5000 });
      if ((await input.inputValue()) !== text) throw new Error(`quick input shows "${await input.inputValue()}"`);
      const row = page.locator(rowSelector, { hasText: rowText }).first();
      await row.waitFor({ state: 'visible', timeout: Math.min(2000, Math.max(500, deadline - Date.now())) });
      return row;
    } catch (e) {
      lastError = e;
      if (process.env.CL_E2E_DEBUG) {
        const shown = await page.locator('.quick-input-list .monaco-list-row').allTextContents().catch(() => []);
        console.log(`    [retry ${attempt}] ${rowText}: ${String(e.message || e).split('\n')[0]}; input "${await input.inputValue().catch(() => '?')}"; rows ${JSON.stringify(shown.slice(0, 3))}`);
      }
      await sleep(300 * attempt);
    }
  }
  await page.keyboard.press('Escape');
  throw new Error(`"${rowText}" not offered by the quick input ("${text}") within ${timeout / 1000} s: ${lastError instanceof Error ? lastError.message.split('\n')[0] : lastError}`);
}

/**
 * F1, type the command's title, pick the row with that title. The click has a short timeout and
 * the whole pick is retried: the quick input can close under the pointer (focus taken by a
 * webview that is still loading), and a click on its detached row would wait out the step.
 */
export async function runCommand(page, title, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (let attempt = 1; ; attempt++) {
    const row = await quickPick(page, 'F1', `>${title}`, '.quick-input-list .monaco-list-row', title, { timeout: Math.max(5000, deadline - Date.now()) });
    try {
      await row.click({ timeout: 5000 });
      return;
    } catch (e) {
      // Something over the row (a toast, a webview's overlay)? The keyboard does not care.
      const focused = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
      if (await focused.isVisible().catch(() => false)) {
        await page.keyboard.press('Enter');
        return;
      }
      if (Date.now() > deadline) throw new Error(`"${title}": its row in the command palette could not be clicked (${attempt} attempts): ${String(e instanceof Error ? e.message : e).split('\n')[0]}`);
      await sleep(300 * attempt);
    }
  }
}

/** Ctrl+P, type the file name, Enter; waits for its editor tab. */
export async function quickOpen(page, fileName) {
  // the focused (first) row must be the file: not a recently opened one before the filter applied
  await quickPick(page, 'Control+P', fileName, '.quick-input-list .monaco-list-row.focused', fileName);
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: fileName }).first().waitFor({ state: 'visible', timeout: 20_000 });
}

export async function closeAllEditors(page) {
  await runCommand(page, 'View: Close All Editors');
  await page.waitForFunction(() => !globalThis.document.querySelector('.tabs-container .tab'), null, { timeout: 10_000 }).catch(() => {});
}

/** The visible inspector webview's content frame. */
export function webviewContent(page) {
  return page.frameLocator('iframe.webview.ready >> visible=true').first().frameLocator('#active-frame');
}

/**
 * Measures every canvas in the webview: size, and how many (sampled) pixels differ from the
 * background behind the canvas. Runs inside the webview's content frame.
 */
function measureCanvases() {
  const doc = globalThis.document;
  const parseRgb = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || '');
    if (!m) return undefined;
    const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 };
  };
  const bgOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parseRgb(globalThis.getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c;
    }
    return parseRgb(globalThis.getComputedStyle(doc.body).backgroundColor) || { r: 0, g: 0, b: 0, a: 0 };
  };
  return Array.from(doc.querySelectorAll('canvas')).map((c) => {
    const hint = [c.id, c.className, c.getAttribute('aria-label') || '', c.parentElement ? c.parentElement.id + ' ' + c.parentElement.className : ''].join(' ');
    const info = { hint: hint.trim(), width: c.width, height: c.height, visible: c.getClientRects().length > 0, nonBackground: 0, sampled: 0, colors: 0 };
    if (!c.width || !c.height) return info;
    let ctx;
    try {
      ctx = c.getContext('2d', { willReadFrequently: true });
    } catch {
      ctx = null;
    }
    if (!ctx) return { ...info, note: 'no 2d context' };
    const bg = bgOf(c.parentElement || c);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const step = Math.max(1, Math.floor(Math.sqrt((c.width * c.height) / 40000)));
    const colors = new Set();
    for (let y = 0; y < c.height; y += step) {
      for (let x = 0; x < c.width; x += step) {
        const i = (y * c.width + x) * 4;
        const a = data[i + 3];
        info.sampled++;
        if (a === 0) continue;
        const d = Math.max(Math.abs(data[i] - bg.r), Math.abs(data[i + 1] - bg.g), Math.abs(data[i + 2] - bg.b));
        if (d > 24) {
          info.nonBackground++;
          if (colors.size < 256) colors.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
        }
      }
    }
    info.colors = colors.size;
    return info;
  });
}

/** Waits until a heatmap canvas in the webview has non-background pixels; returns the measurements. */
export async function waitForHeatmap(page, { timeout = 45_000 } = {}) {
  const inner = webviewContent(page);
  await inner.locator('canvas').first().waitFor({ state: 'attached', timeout });
  const deadline = Date.now() + timeout;
  let last = [];
  for (;;) {
    last = await inner.locator('body').evaluate(measureCanvases).catch((e) => [{ error: String(e) }]);
    const heat = last.filter((c) => /heat|matrix|kkt/i.test(c.hint || ''));
    const candidates = heat.length ? heat : last;
    const good = candidates.find((c) => c.nonBackground > 0);
    if (good) return { ok: true, heatmapFound: heat.length > 0, canvas: good, all: last };
    if (Date.now() > deadline) return { ok: false, heatmapFound: heat.length > 0, all: last };
    await sleep(200);
  }
}

export async function webviewText(page) {
  return (await webviewContent(page).locator('body').innerText({ timeout: 5000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
}

export async function openProblems(page) {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false))) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
    await sleep(700);
  }
  await sleep(300);
  return page.locator('.markers-panel .monaco-list-row').allTextContents().catch(() => []);
}

/** 'dark' or 'light' from the luminance of the editor background colour the theme sets. */
export async function workbenchThemeKind(page) {
  return page.evaluate(() => {
    const wb = globalThis.document.querySelector('.monaco-workbench');
    if (!wb) return 'unknown';
    const v = globalThis.getComputedStyle(wb).getPropertyValue('--vscode-editor-background').trim();
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(v);
    if (!m) return `unknown (${v})`;
    const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5 ? 'dark' : 'light';
  });
}

/**
 * The inspector's 3D scene view: its WebGL canvas is there (not the "needs WebGL" message) and
 * draws something besides its background. A WebGL canvas cannot be read back once composited, so
 * the check reads a screenshot of it. Saves a screenshot of the scene card to `shot`.
 */
export async function check3dView(page, shot, { timeout = 30_000 } = {}) {
  const inner = webviewContent(page);
  const card = inner.locator('#cl-scene');
  await card.waitFor({ state: 'visible', timeout });
  const message = inner.locator('#cl-scene .cl3d-message');
  const canvas = inner.locator('#cl-scene .cl3d-canvas');
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await message.count()) throw new Error(`the 3D view shows its message instead of a canvas: ${(await message.innerText()).replace(/\s+/g, ' ')}`);
    if (await canvas.count()) break;
    if (Date.now() > deadline) throw new Error('no 3D canvas in the scene card');
    await sleep(200);
  }
  // In view, its top just below the panel's sticky header (which would otherwise cover it).
  await canvas.evaluate((c) => {
    const header = globalThis.document.querySelector('.cl-header');
    const r = (c.closest('.cl-card') || c).getBoundingClientRect();
    const below = (header ? header.getBoundingClientRect().bottom : 0) + 8;
    if (r.top < below || r.bottom > globalThis.innerHeight) globalThis.scrollBy(0, r.top - below);
  });
  let stats;
  for (;;) {
    await sleep(300);
    stats = inkStats(decodePng(await canvas.screenshot()));
    if ((stats.ink > 0.01 && stats.colors >= 8) || Date.now() > deadline) break;
  }
  await card.screenshot({ path: shot });
  if (!(stats.ink > 0.01 && stats.colors >= 8)) throw new Error(`the 3D canvas is blank: ${JSON.stringify(stats)}`);
  return stats;
}

/**
 * Scrolls the inspector so that the card holding `locator` starts just below the panel's sticky
 * header, and returns the part of the card that is visible then, in page coordinates (a clip for
 * page.screenshot: a card taller than the webview is cut at its bottom, never under the header).
 */
export async function cardInView(page, locator) {
  const below = await locator.evaluate((el) => {
    const header = globalThis.document.querySelector('.cl-header');
    const r = (el.closest('.cl-card') || el).getBoundingClientRect();
    const top = (header ? header.getBoundingClientRect().bottom : 0) + 8;
    globalThis.scrollBy(0, r.top - top);
    return top;
  });
  await sleep(300);
  const frame = await page.locator('iframe.webview.ready >> visible=true').first().boundingBox().catch(() => null);
  const box = await locator.boundingBox();
  if (!box) throw new Error('the card has no box');
  const view = page.viewportSize();
  // The webview's bottom (nested iframes share its box), else the page's.
  const bottom = Math.min(box.y + box.height, frame ? frame.y + frame.height : view.height, view.height);
  const y = Math.max(box.y, (frame ? frame.y : 0) + below - 8);
  return { x: box.x, y, width: box.width, height: Math.max(1, bottom - y) };
}

/**
 * Puts the cursor of the scene's editor (the first editor group) at line:column with Quick Open's
 * ":line:column", then waits for the inspector's scene card to say that `name` is selected
 * (the host's `select`, sent after the cursor rests on the item).
 */
export async function cursorSelects(page, line, column, name, { timeout = 10_000 } = {}) {
  const input = page.locator('.quick-input-widget input').first();
  // The scene's editor group focused, then Quick Open's ":line:column" (retried like quickPick:
  // right after a layout change the quick input may close again before it takes the text).
  const goTo = async (where) => {
    let lastError;
    for (let attempt = 1; attempt <= 4; attempt++) {
      try {
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+1');
        await sleep(200);
        await page.keyboard.press('Control+P');
        await input.waitFor({ state: 'visible', timeout: 5000 });
        await input.fill(`:${where}`, { timeout: 5000 });
        if ((await input.inputValue()) !== `:${where}`) throw new Error(`quick input shows "${await input.inputValue()}"`);
        await sleep(300);
        await page.keyboard.press('Enter');
        return;
      } catch (e) {
        lastError = e;
        await sleep(300 * attempt);
      }
    }
    throw new Error(`could not go to ${where}: ${lastError instanceof Error ? lastError.message.split('\n')[0] : lastError}`);
  };
  // The editor may reopen with its cursor there already (VS Code keeps a file's view state): the
  // cursor has to move onto the item while the inspector is open. On a loaded machine the first
  // move can land before the editor group has focus (the cursor then moves elsewhere), so the
  // move is made again, up to three times, before the selection is declared missing.
  const note = webviewContent(page).locator('#cl-scene .cl-scene-note');
  const deadline = Date.now() + timeout * 2.5;
  let text = '';
  for (let move = 1; move <= 3; move++) {
    await goTo('1:1');
    await sleep(500);
    await goTo(`${line}:${column}`);
    const moveDeadline = Math.min(deadline, Date.now() + timeout * (move === 3 ? 2 : 0.8));
    for (;;) {
      text = (await note.innerText().catch(() => '')).trim();
      if (text.startsWith(`${name} (`) || text.startsWith(`${name} selected`)) return text;
      if (Date.now() > moveDeadline) break;
      await sleep(150);
    }
  }
  throw new Error(`the inspector did not select ${name} after the cursor moved to ${line}:${column} three times (scene note: "${text}")`);
}
