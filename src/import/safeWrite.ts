// Writing an output file next to untrusted input (export-scene's `-o`): an existing file is kept
// unless the user says `--force`, a symbolic link is never followed (the link could lead to any
// file the user can write), and the model being read is never overwritten, whatever path names it.
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Why the file was not written (the CLI prints it and exits with status 2). */
export class WriteRefused extends Error {}

const sameFile = (a: { dev: number; ino: number }, b: { dev: number; ino: number }) => a.dev === b.dev && a.ino === b.ino;

/**
 * Write `text` to `target`. Without `force` an existing `target` is refused; with it, a regular file
 * is replaced (a new file renamed over it, so a link is replaced, never followed). A symbolic link,
 * a directory or anything else that is not a regular file, and the file `input` itself, are refused.
 */
export function writeOutput(target: string, text: string, opts: { force?: boolean; input?: string } = {}): void {
  let existing;
  try {
    existing = lstatSync(target);
  } catch {
    existing = undefined;
  }
  if (existing?.isSymbolicLink()) throw new WriteRefused(`${target} is a symbolic link: it is not followed or replaced; choose another output file`);
  if (existing && !existing.isFile()) throw new WriteRefused(`${target} exists and is not a regular file`);
  if (existing && opts.input) {
    let input;
    try {
      input = statSync(opts.input);
    } catch {
      input = undefined;
    }
    if (input && sameFile(existing, input)) throw new WriteRefused(`${target} is the model being exported: it is never overwritten`);
  }
  if (existing && !opts.force) throw new WriteRefused(`${target} exists: pass --force to overwrite it`);
  const data = Buffer.from(text, 'utf8');
  if (!existing) {
    // O_EXCL: fails if something appeared meanwhile, and never follows a link at `target`.
    const fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, target);
}

function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
}
