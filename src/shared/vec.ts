// Small vector helpers the panel and the CLI share. Pure: no vscode, no DOM, no Node APIs.

/** Euclidean length of a 3-vector (0 for a missing one). */
export const norm3 = (v: readonly number[] | undefined): number => (v ? Math.hypot(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0) : 0);
