// The CLI's input and output: reading the scene, writing files with clear messages, and printing
// text that is always safe for a terminal.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readRegularFileSync, UnreadableFile } from '../import/nodeFiles';
import { safeText } from '../shared';

/** A file that cannot be read or written: the message on stderr, exit status 2. */
export class IoError extends Error {}

const reason = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** Files larger than this are not read at all (the engine's own text limit is far below it). */
const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** The text of a regular file: a FIFO, socket or device is refused at once instead of blocking the read. */
export function readScene(file: string): string {
  try {
    return readRegularFileSync(file, MAX_INPUT_BYTES).toString('utf8');
  } catch (e) {
    throw new IoError(`cannot read ${safeText(file)}: ${e instanceof UnreadableFile ? e.message : reason(e)}`);
  }
}

const kindOf = (p: string): 'dir' | 'other' | undefined => {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'other';
  } catch {
    return undefined;
  }
};

/**
 * Throws an IoError with a clear message when `file` cannot be written because it is a directory
 * or because one of its parent directories is a file. Missing parent directories are fine (they are
 * created). Checked before a long run, so the user does not wait for a write that will fail.
 */
export function checkWritable(file: string): void {
  const target = resolve(file);
  if (kindOf(target) === 'dir') throw new IoError(`cannot write ${safeText(file)}: it is a directory`);
  for (let d = dirname(target); ; d = dirname(d)) {
    const k = kindOf(d);
    if (k === 'other') throw new IoError(`cannot write ${safeText(file)}: ${safeText(d)} is a file, not a directory`);
    if (k === 'dir' || dirname(d) === d) return;
  }
}

/** Writes `text` to `file`, creating missing parent directories. */
export function writeOut(file: string, text: string): void {
  checkWritable(file);
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new IoError(`cannot write ${safeText(file)}: ${reason(e)}`);
  }
}

/** Prints to stdout; control characters and bidi overrides (from scene names, paths) become visible escapes. */
export const print = (s = ''): void => {
  process.stdout.write(safeText(s, { keepNewlines: true }) + '\n');
};

/** The same on stderr. */
export const printError = (s: string): void => {
  process.stderr.write(safeText(s, { keepNewlines: true }) + '\n');
};
