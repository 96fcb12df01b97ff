// The 3D view's colours: read from the --cl3d-* custom properties of its root element, which
// scene3d.css defines from --vscode-* variables (with report fallbacks). Re-read on setTheme().
import { parseColor, relLuminance, contrast, type RGB } from '../theme';
import type { ItemState } from './model';
import type { ContactState } from './read';

export interface Palette3D {
  dark: boolean;
  highContrast: boolean;
  bg: RGB;
  fg: RGB;
  muted: RGB;
  grid: RGB;
  gridStrong: RGB;
  focus: RGB;
  hover: RGB;
  body: RGB;
  bodyAlt: RGB;
  fixed: RGB;
  world: RGB;
  force: RGB;
  torque: RGB;
  /** Contact friction arrows: apart from the contact states' colours, which their normal arrows take. */
  friction: RGB;
  axes: [RGB, RGB, RGB];
  trail: RGB;
  state: Record<ItemState, RGB>;
  contact: Record<ContactState, RGB>;
}

/** CSS for an RGB triple (for the HTML legend). */
export const css = (c: RGB): string => `rgb(${Math.round(c[0])},${Math.round(c[1])},${Math.round(c[2])})`;

/** Mix a toward b by t (0..1), in sRGB. */
export const mix = (a: RGB, b: RGB, t: number): RGB => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/** A colour nudged until it stands out from the background (≥ 3:1, WCAG non-text contrast) in high contrast. */
function standOut(c: RGB, bg: RGB, fg: RGB, hc: boolean): RGB {
  if (!hc) return c;
  for (let i = 0; i <= 10; i++) {
    const m = mix(c, fg, i / 10);
    if (contrast(m, bg) >= 3) return m;
  }
  return fg;
}

export function readPalette3D(root: Element): Palette3D {
  const cs = getComputedStyle(root);
  // Any CSS colour (translucent ones, e.g. #rrggbbaa, are blended over the background).
  const rgba = (name: string, fb: RGB): [number, number, number, number] => parseColor(cs.getPropertyValue(name).trim(), fb);
  const bgA = rgba('--cl3d-bg', [255, 255, 255]);
  const bg: RGB = [bgA[0], bgA[1], bgA[2]];
  const dark = relLuminance(bg) < 0.35;
  const get = (name: string, fb: RGB): RGB => {
    const c = rgba(name, fb);
    return mix(bg, [c[0], c[1], c[2]], c[3]);
  };
  const body = document.body;
  const highContrast = !!body?.classList.contains('vscode-high-contrast') || !!body?.classList.contains('vscode-high-contrast-light');
  const fg = get('--cl3d-fg', dark ? [204, 204, 204] : [59, 59, 59]);
  const so = (c: RGB): RGB => standOut(c, bg, fg, highContrast);
  const muted = so(get('--cl3d-muted', [128, 128, 128]));
  const red = so(get('--cl3d-red', [229, 20, 0]));
  const green = so(get('--cl3d-green', [56, 138, 52]));
  const orange = so(get('--cl3d-orange', [209, 134, 22]));
  const purple = so(get('--cl3d-purple', [101, 45, 144]));
  const warning = so(get('--cl3d-warning', [191, 136, 3]));
  const error = so(get('--cl3d-error', [229, 20, 0]));
  const ok = so(get('--cl3d-ok', [56, 138, 52]));
  const focus = so(get('--cl3d-focus', [0, 95, 184]));
  return {
    dark,
    highContrast,
    bg,
    fg,
    muted,
    grid: mix(bg, fg, highContrast ? 0.35 : dark ? 0.14 : 0.12),
    gridStrong: mix(bg, fg, highContrast ? 0.7 : 0.32),
    focus,
    hover: mix(focus, fg, 0.35),
    // Bodies are neutral (the foreground's tone): the focus colour marks the selection, the charts'
    // colours the constraints' states, forces and contacts.
    body: mix(bg, fg, highContrast ? 0.85 : dark ? 0.72 : 0.5),
    bodyAlt: mix(bg, fg, highContrast ? 0.7 : dark ? 0.58 : 0.38),
    fixed: mix(bg, muted, dark ? 0.55 : 0.45),
    world: muted,
    force: purple,
    torque: purple,
    friction: purple,
    axes: [red, green, so(get('--cl3d-blue', [26, 133, 255]))],
    trail: mix(bg, muted, 0.8),
    state: { ok, redundant: warning, violated: error, conflicting: error, 'ill-conditioned': orange, fixed: muted, unknown: muted },
    contact: { open: muted, stick: green, slip: orange, unknown: muted },
  };
}
