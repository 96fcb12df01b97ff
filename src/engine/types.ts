// Shared primitive types of the engine. Pure TypeScript: no vscode, no DOM.

/** A 3-vector. */
export type Vec3 = [number, number, number];
/** A quaternion `[x, y, z, w]`, scalar last (AerisLab's convention). */
export type Quat = [number, number, number, number];
/** A 3×3 matrix, row-major: `[m00, m01, m02, m10, ..., m22]`. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

/** A 0-based line/character position (as LSP and VS Code). */
export interface Position {
  line: number;
  character: number;
}

/** A 0-based half-open range in the scene text. */
export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A text edit on the scene file, for quick fixes. */
export interface TextEdit {
  range: Range;
  newText: string;
}

/** A fix the editor can offer as a code action (an undoable edit of the scene file). */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** True when this fix is the obvious one (VS Code `isPreferred`). */
  preferred?: boolean;
}

export interface RelatedInformation {
  message: string;
  range: Range;
}

/**
 * A problem with a scene. `code` is stable (see `codes.ts`), `range` is the
 * offending value (never the whole file unless the file itself is the problem).
 */
export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  range: Range;
  related?: RelatedInformation[];
  fixes?: Fix[];
  /** Machine-readable context (constraint index, body name, step, ...). */
  data?: Record<string, unknown>;
}
