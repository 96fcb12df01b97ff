// Which body or constraint of a scene file a text offset is in: the editor's cursor selects it in
// the inspector. Pure (no vscode): the scene's items and the source map of the same text.
import type { SceneSpec, SourceMap } from '../../engine';

export interface SceneItem {
  kind: 'body' | 'constraint';
  name: string;
  /** Index in the file's array. */
  fileIndex: number;
}

/**
 * The item whose JSON object contains `offset` (its braces included), or undefined (between items,
 * in the solver settings…). Only items the parser kept are found (a constraint dropped for an
 * unknown body is not selectable).
 */
export function itemAtOffset(scene: Pick<SceneSpec, 'bodies' | 'constraints'>, sm: Pick<SourceMap, 'nodeSpan'>, offset: number): SceneItem | undefined {
  const lists = [
    ['constraint', 'constraints', scene.constraints],
    ['body', 'bodies', scene.bodies],
  ] as const;
  for (const [kind, key, items] of lists) {
    const all = sm.nodeSpan([key]);
    if (!all || offset < all.offset || offset > all.offset + all.length) continue;
    for (const it of items) {
      const span = sm.nodeSpan([key, it.index]);
      if (span && offset >= span.offset && offset <= span.offset + span.length) return { kind, name: it.name, fileIndex: it.index };
    }
  }
  return undefined;
}

export const sameItem = (a: SceneItem | undefined, b: SceneItem | undefined): boolean => a?.kind === b?.kind && a?.name === b?.name;
