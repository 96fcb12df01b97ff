// The engine reads HDF5 through this small interface, not through a library of its own: the HDF5 C
// library compiled to WebAssembly (h5wasm) is loaded by whoever runs the engine (the CLI, the
// extension, a test) and handed in as an `Hdf5Open`. So the engine stays free of Node APIs and of a
// 4 MB module it does not always need, and no HDF5 parser is written by hand.

/** A node of an HDF5 file: a group with its children's names, or a dataset with its shape. */
export type Hdf5Node =
  | { kind: 'group'; keys: string[] }
  | { kind: 'dataset'; shape: number[]; /** `float`, `int`, `string` or another class name. */ type: string; /** Its numbers in C order (strings: NaN); fewer than the shape holds when it cannot be read. */ read(): Float64Array };

export interface Hdf5File {
  /** The node at a '/'-separated path, or undefined when there is none. */
  get(path: string): Hdf5Node | undefined;
  close(): void;
}

/** Opens the bytes of an HDF5 file, or says why it cannot (never throws). */
export type Hdf5Open = (bytes: Uint8Array) => Hdf5File | { error: string };

/** HDF5's format signature, at the file's start (a user block may move it; such files are rare). */
const SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
export const isHdf5 = (bytes: Uint8Array): boolean => bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);

/** A dataset's numbers, or a message naming the path when it is missing, not numeric or too large. */
export function readNumbers(file: Hdf5File, path: string, maxElements: number): { shape: number[]; data: Float64Array } | { missing: true } | { error: string } {
  const node = file.get(path);
  if (!node) return { missing: true };
  if (node.kind !== 'dataset') return { error: `'${path}' is a group, not a dataset` };
  if (node.type !== 'float' && node.type !== 'int') return { error: `'${path}' holds ${node.type} values, not numbers` };
  const count = node.shape.reduce((a, b) => a * b, 1);
  if (count > maxElements) return { error: `'${path}' has ${count} elements, above the limit of ${maxElements}` };
  const data = node.read();
  // a reader that fails on a damaged dataset hands back fewer numbers than the shape says
  if (data.length !== count) return { error: `'${path}' could not be read (${data.length} of ${count} numbers): the file is damaged` };
  return { shape: node.shape, data };
}

/**
 * The end-of-file address HDF5's superblock records (versions 0 to 3), when the bytes are shorter than
 * it: a truncated file is told before the HDF5 library is asked to open it (which would print its
 * error stack). Undefined when the file is whole or the superblock is not one of these.
 */
export function hdf5TruncatedAt(bytes: Uint8Array): number | undefined {
  if (!isHdf5(bytes) || bytes.length < 12) return undefined;
  const version = bytes[8];
  const sizeOfOffsets = version <= 1 ? bytes[13] : bytes[9];
  if (sizeOfOffsets !== 4 && sizeOfOffsets !== 8) return undefined;
  // versions 0 and 1: eight one-byte fields, two group K values, the consistency flags (and in version 1
  // the indexed-storage K and two reserved bytes), then the base, free-space and end-of-file addresses;
  // versions 2 and 3: four one-byte fields, then the base, extension and end-of-file addresses
  const at = version === 0 ? 24 + 2 * sizeOfOffsets : version === 1 ? 28 + 2 * sizeOfOffsets : version <= 3 ? 12 + 2 * sizeOfOffsets : -1;
  if (at < 0 || bytes.length < at + sizeOfOffsets) return at < 0 ? undefined : at + sizeOfOffsets;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eof = sizeOfOffsets === 8 ? Number(view.getBigUint64(at, true)) : view.getUint32(at, true);
  return eof > bytes.length ? eof : undefined;
}
