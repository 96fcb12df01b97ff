// Tiny DOM helpers (no innerHTML: everything is built with createElement, CSP-safe).

type Attrs = Record<string, string | number | boolean | undefined | null>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

const SVG = 'http://www.w3.org/2000/svg';

/** 16×16 line icons (codicon-like), drawn with currentColor. */
const ICONS: Record<string, string[]> = {
  step: ['M4 3v10l7-5z', 'M12 3v10'],
  run: ['M2 3v10l6-5z', 'M8 3v10l6-5z'],
  play: ['M4 2.5v11l9-5.5z'],
  pause: ['M5 3v10', 'M11 3v10'],
  reset: ['M3 8a5 5 0 1 0 1.5-3.5', 'M3 2.5V5h2.5'],
  zoomIn: ['M7 3a4 4 0 1 0 0 8a4 4 0 1 0 0-8z', 'M10 10l3.5 3.5', 'M5 7h4', 'M7 5v4'],
  zoomOut: ['M7 3a4 4 0 1 0 0 8a4 4 0 1 0 0-8z', 'M10 10l3.5 3.5', 'M5 7h4'],
  fit: ['M2 6V2h4', 'M10 2h4v4', 'M14 10v4h-4', 'M6 14H2v-4'],
  copy: ['M5 5h8v9H5z', 'M3 11V2h8'],
  error: ['M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M5.7 5.7l4.6 4.6', 'M10.3 5.7l-4.6 4.6'],
  warning: ['M8 1.8L14.6 13.6H1.4z', 'M8 6v4', 'M8 11.6v.4'],
  info: ['M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M8 7v4.5', 'M8 4.6v.4'],
  hint: ['M8 2a4 4 0 0 0-2.5 7.1V11h5V9.1A4 4 0 0 0 8 2z', 'M6 13.5h4'],
  link: ['M7 9l2-2', 'M6 5.5l1.5-1.5a2.5 2.5 0 0 1 3.5 3.5L9.5 9', 'M10 10.5L8.5 12a2.5 2.5 0 0 1-3.5-3.5L6.5 7'],
};

export function icon(name: keyof typeof ICONS | string, cls = 'cl-icon'): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', cls);
  for (const d of ICONS[name] ?? []) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    svg.appendChild(p);
  }
  return svg;
}

export function button(label: string, opts: { icon?: string; title?: string; cls?: string; onClick?: (e: MouseEvent) => void; pressed?: boolean; iconOnly?: boolean } = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', class: `cl-btn ${opts.cls ?? ''}`.trim(), title: opts.title ?? label });
  if (opts.icon) b.append(icon(opts.icon));
  if (opts.iconOnly) b.setAttribute('aria-label', label);
  else b.append(h('span', { class: 'cl-btn-label', text: label }));
  if (opts.pressed !== undefined) b.setAttribute('aria-pressed', String(opts.pressed));
  if (opts.onClick) b.addEventListener('click', opts.onClick);
  return b;
}
