// Which files are models: cheap, no dependencies (the extension asks it for every XML document it
// sees, before anything else of the importer is used). See docs/import.md and docs/extension.md.

/** How many characters of a file `isModelFile` reads to find the root element. */
export const MODEL_HEAD_CHARS = 4096;

/**
 * An MJCF file (.xml whose root element is <mujoco>) or a URDF file (.urdf). Other XML is not a
 * model. Only the first MODEL_HEAD_CHARS characters of `text` are looked at (the XML declaration,
 * comments and a doctype may come before the root element).
 */
export function isModelFile(path: string, text: string): boolean {
  return modelFormatOf(path, text) !== undefined;
}

/** 'urdf' for *.urdf, 'mjcf' for *.xml with a <mujoco> root element, otherwise undefined. */
export function modelFormatOf(path: string, text: string): 'mjcf' | 'urdf' | undefined {
  if (/\.urdf$/i.test(path)) return 'urdf';
  if (!/\.xml$/i.test(path)) return undefined;
  const head = text.slice(0, MODEL_HEAD_CHARS).replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '');
  return /^\s*(\ufeff)?\s*<mujoco[\s>/]/.test(head) ? 'mjcf' : undefined;
}
