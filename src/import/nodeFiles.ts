// Reading model files from the disk (the CLI, tests, the extension for local folders): only regular
// files are read. A FIFO, socket or device would block a read forever (a named pipe in the workspace
// called `robot.xml` must not hang the importer), so the file is opened without blocking, checked
// with fstat on the open descriptor (no window for a swap between the check and the read) and read
// only when it is a regular file within the size limit.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import type { FileAccess, FileStat } from './files';

/** O_NONBLOCK where the platform has it (opening a FIFO for reading would otherwise wait for a writer). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Why a path cannot be read as a model file: 'not-regular', 'too-large', or an errno code. */
export class UnreadableFile extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The bytes of a regular file of at most `maxBytes`. Throws UnreadableFile (never blocks) for
 * FIFOs, sockets, devices and directories, larger files, and files that cannot be opened.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw new UnreadableFile(code, `${code}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnreadableFile('not-regular', 'not a regular file (a directory, FIFO, socket or device)');
    if (st.size > maxBytes) throw new UnreadableFile('too-large', `${st.size} bytes, more than ${maxBytes}`);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === st.size ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The same, asynchronous (the extension host never blocks on a read). */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  let h;
  try {
    h = await open(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw new UnreadableFile(code, `${code}`);
  }
  try {
    const st = await h.stat();
    if (!st.isFile()) throw new UnreadableFile('not-regular', 'not a regular file (a directory, FIFO, socket or device)');
    if (st.size > maxBytes) throw new UnreadableFile('too-large', `${st.size} bytes, more than ${maxBytes}`);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const { bytesRead } = await h.read(buf, got, st.size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === st.size ? buf : buf.subarray(0, got);
  } finally {
    await h.close();
  }
}

const statOf = (s: { isFile(): boolean; size: number }): FileStat => ({ regular: s.isFile(), size: s.size });

/** Node file access for the CLI and tests: regular files under `workspaceRoot` only, read synchronously. */
export function nodeFileAccess(workspaceRoot: string, maxBytes = 64 * 1024 * 1024): FileAccess {
  return {
    workspaceRoot,
    readFile: (p) => {
      try {
        return readRegularFileSync(p, maxBytes);
      } catch {
        return undefined;
      }
    },
    realPath: (p) => {
      try {
        return realpathSync(p);
      } catch {
        return undefined;
      }
    },
    stat: (p) => {
      try {
        return statOf(statSync(p));
      } catch {
        return undefined;
      }
    },
  };
}

/** The same, asynchronous: for the extension host, where a synchronous read would freeze every extension. */
export function nodeFileAccessAsync(workspaceRoot: string, maxBytes = 64 * 1024 * 1024): FileAccess {
  return {
    workspaceRoot,
    readFile: async (p) => {
      try {
        return await readRegularFile(p, maxBytes);
      } catch {
        return undefined;
      }
    },
    realPath: async (p) => {
      try {
        return await realpath(p);
      } catch {
        return undefined;
      }
    },
    stat: async (p) => {
      try {
        return statOf(await stat(p));
      } catch {
        return undefined;
      }
    },
  };
}
