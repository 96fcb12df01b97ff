// Which files are models: cheap, no dependencies (the extension asks it for every XML document it
// sees, before anything else of the importer is used). See docs/import.md and docs/extension.md.

/**
 * How many characters of a file `isModelFile` reads to find the root element: real models start
 * with licence headers of several kilobytes, so the prolog (comments, a DOCTYPE, processing
 * instructions) may be long; the scan stops at the first element.
 */
export const MODEL_HEAD_CHARS = 1 << 20;

/**
 * An MJCF file (.xml whose root element is <mujoco>) or a URDF file (.urdf). Other XML is not a
 * model. Only the first MODEL_HEAD_CHARS characters of `text` are looked at.
 */
export function isModelFile(path: string, text: string): boolean {
  return modelFormatOf(path, text) !== undefined;
}

/** 'urdf' for *.urdf, 'mjcf' for *.xml with a <mujoco> root element, otherwise undefined. */
export function modelFormatOf(path: string, text: string): 'mjcf' | 'urdf' | undefined {
  if (/\.urdf$/i.test(path)) return 'urdf';
  if (!/\.xml$/i.test(path)) return undefined;
  return rootElementName(text) === 'mujoco' ? 'mjcf' : undefined;
}

/**
 * The name of the first element of `text`, after a BOM, whitespace, the XML declaration, processing
 * instructions, comments and a DOCTYPE (with an internal subset) of any length within
 * MODEL_HEAD_CHARS; undefined when there is none. Linear in the prolog's length.
 */
export function rootElementName(text: string): string | undefined {
  const end = Math.min(text.length, MODEL_HEAD_CHARS);
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < end) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c !== '<') return undefined;
    if (text.startsWith('<?', i)) {
      const j = text.indexOf('?>', i + 2);
      if (j < 0) return undefined;
      i = j + 2;
    } else if (text.startsWith('<!--', i)) {
      const j = text.indexOf('-->', i + 4);
      if (j < 0) return undefined;
      i = j + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      i = doctypeEnd(text, i + 9);
      if (i < 0) return undefined;
    } else {
      const m = /^<([A-Za-z_:][\w.:-]*)/.exec(text.slice(i, i + 256));
      return m?.[1];
    }
  }
  return undefined;
}

/** Offset after the DOCTYPE that starts before `i` ('>' outside its [internal subset] and quotes), or −1. */
function doctypeEnd(text: string, i: number): number {
  let depth = 0;
  let quote = '';
  for (; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return -1;
}
