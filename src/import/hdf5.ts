// HDF5 for the trace readers (src/engine/trace): h5wasm, the HDF5 C library compiled to WebAssembly,
// loaded lazily once per process and handed to the engine as an `Hdf5Open`. Each file is copied into
// h5wasm's in-memory file system, read, and removed on close: nothing touches the disk.
import type { Hdf5File, Hdf5Node, Hdf5Open } from '../engine';

interface H5Dataset {
  type: 'Dataset';
  shape: number[] | null;
  metadata: { type: number };
  value: unknown;
}
interface H5Group {
  type: 'Group' | 'File';
  keys(): string[];
}
interface H5FileHandle extends H5Group {
  file_id: bigint | number;
  get(path: string): H5Dataset | H5Group | null | { type: string };
  close(): unknown;
}
interface H5Module {
  ready: Promise<{ FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void } }>;
  File: new (path: string, mode: 'r') => H5FileHandle;
}

// HDF5's type classes (H5T_class_t) as h5wasm reports them in a dataset's metadata
const H5T_INTEGER = 0, H5T_FLOAT = 1, H5T_STRING = 3;

let loaded: Promise<Hdf5Open | undefined> | undefined;
let serial = 0;

function toNumbers(value: unknown): Float64Array {
  if (typeof value === 'number') return Float64Array.of(value);
  if (typeof value === 'bigint') return Float64Array.of(Number(value));
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Float64Array.from(value as unknown as ArrayLike<number | bigint>, (x) => Number(x));
  if (Array.isArray(value)) return Float64Array.from(value.flat(Infinity), (x) => (typeof x === 'number' || typeof x === 'bigint' ? Number(x) : NaN));
  return new Float64Array(0);
}

/** The node at `path`; a damaged file makes h5wasm throw, which reads here as no node (or no numbers). */
function node(file: H5FileHandle, path: string): Hdf5Node | undefined {
  try {
    const found = file.get(path);
    if (!found) return undefined;
    if (found.type === 'Group' || found.type === 'File') return { kind: 'group', keys: (found as H5Group).keys() };
    if (found.type !== 'Dataset') return undefined;
    const d = found as H5Dataset;
    const cls = d.metadata.type;
    return {
      kind: 'dataset',
      shape: d.shape ?? [],
      type: cls === H5T_FLOAT ? 'float' : cls === H5T_INTEGER ? 'int' : cls === H5T_STRING ? 'string' : `class ${cls}`,
      read: () => {
        try {
          return toNumbers(d.value);
        } catch {
          return new Float64Array(0);
        }
      },
    };
  } catch {
    return undefined;
  }
}

/** h5wasm's opener, or undefined when the module cannot be loaded (the trace reader then says so). */
export function loadHdf5Open(): Promise<Hdf5Open | undefined> {
  loaded ??= (async () => {
    try {
      const h5 = (await import('h5wasm')) as unknown as H5Module & { default?: H5Module };
      const mod = h5.default ?? h5;
      const { FS } = await mod.ready;
      return (bytes: Uint8Array) => {
        const path = `/trace-${++serial}.h5`;
        try {
          FS.writeFile(path, bytes);
          const f = new mod.File(path, 'r');
          // h5wasm does not throw when HDF5 refuses a file (truncated, damaged): the id is negative
          if (Number(f.file_id) < 0) throw new Error('HDF5 could not open it (truncated or damaged)');
          return {
            get: (p: string) => node(f, p),
            close: () => {
              try {
                f.close();
              } finally {
                FS.unlink(path);
              }
            },
          } satisfies Hdf5File;
        } catch (e) {
          try {
            FS.unlink(path);
          } catch {
            // already gone
          }
          return { error: e instanceof Error ? e.message : String(e) };
        }
      };
    } catch {
      return undefined;
    }
  })();
  return loaded;
}
