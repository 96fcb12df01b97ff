// Colours resolved from the CSS custom properties (themselves from --vscode-* variables with
// report fallbacks, see main.css), for canvas drawing and chart.js.

import type { Palette, RGB } from './palette';

export type { Palette, RGB };

let probe: CanvasRenderingContext2D | null = null;

/** Any CSS colour → [r,g,b,a] (0–255, a 0–1), via the canvas colour parser. */
export function parseColor(css: string, fallback: RGB = [128, 128, 128]): [number, number, number, number] {
  const s = css.trim();
  if (!s) return [...fallback, 1];
  probe ??= document.createElement('canvas').getContext('2d');
  if (!probe) return [...fallback, 1];
  probe.fillStyle = '#010203';
  probe.fillStyle = s;
  const v = String(probe.fillStyle);
  if (v === '#010203' && s.toLowerCase() !== '#010203') return [...fallback, 1];
  if (v.startsWith('#')) {
    const n = parseInt(v.slice(1, 7), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const m = /rgba?\(([^)]+)\)/.exec(v);
  if (m) {
    const p = m[1].split(',').map((x) => parseFloat(x));
    return [p[0], p[1], p[2], p[3] ?? 1];
  }
  return [...fallback, 1];
}

const luminance = ([r, g, b]: RGB): number => {
  const c = (x: number): number => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
};

export const relLuminance = luminance;

/** WCAG contrast ratio of two opaque colours (1–21). */
export function contrast(a: RGB, b: RGB): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function readPalette(el: Element = document.body): Palette {
  const cs = getComputedStyle(el);
  const v = (name: string, fb: string): string => cs.getPropertyValue(name).trim() || fb;
  const bg = v('--cl-bg', '#ffffff');
  const bgC = parseColor(bg, [255, 255, 255]);
  const bgRgb: RGB = [bgC[0], bgC[1], bgC[2]];
  const dark = luminance(bgRgb) < 0.35;
  const rgb = (name: string, fb: string): RGB => {
    const c = parseColor(v(name, fb));
    return [c[0], c[1], c[2]];
  };
  const highContrast = !!document.body?.classList.contains('vscode-high-contrast') || !!document.body?.classList.contains('vscode-high-contrast-light');
  let pos = rgb('--cl-pos', '#e51400');
  let neg = rgb('--cl-neg', '#1a85ff');
  if (highContrast) {
    // The ends of the diverging scale must stand out from the background (≥ 3:1, WCAG's non-text
    // contrast) and from each other; otherwise use strong HC-safe reds and blues.
    if (contrast(pos, bgRgb) < 3 || contrast(pos, neg) < 1.15) pos = dark ? [255, 123, 114] : [181, 32, 13];
    if (contrast(neg, bgRgb) < 3 || contrast(pos, neg) < 1.15) neg = dark ? [77, 170, 255] : [15, 74, 133];
  }
  const series = [
    v('--cl-series-1', '#1a85ff'),
    v('--cl-series-2', '#e51400'),
    v('--cl-series-3', '#388a34'),
    v('--cl-series-4', '#bf8803'),
    v('--cl-series-5', '#652d90'),
    v('--cl-series-6', '#d18616'),
  ];
  return {
    dark,
    highContrast,
    bg,
    bgRgb,
    fg: v('--cl-fg', '#1f1f1f'),
    muted: v('--cl-muted', '#6c6c6c'),
    border: v('--cl-border', '#d0d0d0'),
    grid: v('--cl-grid', 'rgba(128,128,128,0.18)'),
    gridStrong: v('--cl-grid-strong', 'rgba(128,128,128,0.55)'),
    focus: v('--cl-focus', '#0066b8'),
    selection: v('--cl-selection', '#0066b8'),
    warning: v('--cl-warning', '#bf8803'),
    error: v('--cl-error', '#e51400'),
    info: v('--cl-info', '#1a85ff'),
    pos,
    neg,
    series,
    font: v('--cl-font', 'system-ui, sans-serif'),
    mono: v('--cl-mono', 'ui-monospace, monospace'),
    fontSize: parseFloat(v('--cl-font-size', '13')) || 13,
  };
}

/**
 * A diverging scale centred on zero: background → `neg` for negative values, background →
 * `pos` for positive ones. Returns a 2×256 lookup of packed ABGR (little-endian ImageData).
 */
export function divergingLut(p: Palette): { pos: Uint32Array; neg: Uint32Array } {
  const mk = (end: RGB): Uint32Array => {
    const lut = new Uint32Array(256);
    // Interpolate in linear light for an even perceived ramp; start slightly off the background so
    // tiny non-zeros remain distinguishable from exact zeros.
    const lin = (x: number): number => Math.pow(x / 255, 2.2);
    const enc = (x: number): number => Math.round(255 * Math.pow(Math.min(1, Math.max(0, x)), 1 / 2.2));
    // In high contrast the smallest non-zeros start much further from the background: a faint tint
    // must not be the only thing telling a small entry from an exact zero.
    const t0 = p.highContrast ? 0.38 : 0.12;
    for (let i = 0; i < 256; i++) {
      const t = t0 + (1 - t0) * (i / 255);
      const c = [0, 1, 2].map((k) => enc(lin(p.bgRgb[k]) * (1 - t) + lin(end[k]) * t));
      lut[i] = (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];
    }
    return lut;
  };
  return { pos: mk(p.pos), neg: mk(p.neg) };
}

/** The CSS colour of a LUT entry. */
export function lutCss(x: number): string {
  return `rgb(${x & 255},${(x >> 8) & 255},${(x >>> 16) & 255})`;
}

/** Is the LUT colour dark (to choose the text colour drawn on it)? */
export function lutIsDark(x: number): boolean {
  return luminance([x & 255, (x >> 8) & 255, (x >>> 16) & 255]) < 0.3;
}

export function withAlpha(css: string, a: number): string {
  const c = parseColor(css);
  return `rgba(${c[0]},${c[1]},${c[2]},${a * c[3]})`;
}

/** Calls `fn` when VS Code switches theme (body class / html style changes). */
export function onThemeChange(fn: () => void): void {
  let pending = false;
  const obs = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  });
  obs.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', fn);
}
