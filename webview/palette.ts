// The colours the panel draws with, as plain data (resolved from CSS by theme.ts). No DOM here:
// the store (tested in Node) holds the current palette.

export type RGB = [number, number, number];

export interface Palette {
  dark: boolean;
  /** A VS Code high-contrast theme (body.vscode-high-contrast, also set for HC Light). */
  highContrast: boolean;
  bg: string;
  bgRgb: RGB;
  fg: string;
  muted: string;
  border: string;
  grid: string;
  gridStrong: string;
  focus: string;
  selection: string;
  warning: string;
  error: string;
  info: string;
  pos: RGB;
  neg: RGB;
  series: string[];
  font: string;
  mono: string;
  fontSize: number;
}
