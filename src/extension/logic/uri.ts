// Names of a document's URI. Pure: works on vscode.Uri and on plain `{ path }` objects (tests).

/** What the scene state needs of a URI (vscode.Uri has it). */
export interface SceneUri {
  readonly path: string;
  toString(): string;
}

/** The map key of a document. */
export const keyOf = (uri: SceneUri): string => uri.toString();

/** The last segment of the URI's path (the file name), or the whole path when it has none. */
export function fileNameOf(uri: SceneUri): string {
  const p = uri.path;
  return p.slice(p.lastIndexOf('/') + 1) || p;
}
