// NumPy's .npy format (numpy/lib/format.py): the magic "\x93NUMPY", a version byte pair (1.0, 2.0 or
// 3.0), a little-endian header length (2 bytes in version 1, 4 in versions 2 and 3), then a Python
// dict literal with `descr`, `fortran_order` and `shape`, then the raw array. Only the dtypes a solver
// logs are read: floats, integers, booleans and fixed-width unicode strings (names of rows and DOFs).

/** An array read from a .npy: numbers as float64 (C order) or strings. */
export type NpyArray =
  | { kind: 'number'; shape: number[]; data: Float64Array }
  | { kind: 'string'; shape: number[]; data: string[] };

/** Elements above this many are refused before any is read (a trace stays within memory). */
export const NPY_MAX_ELEMENTS = 32_000_000;

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

interface Header {
  descr: string;
  fortran: boolean;
  shape: number[];
}

function parseHeader(text: string): Header | string {
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(text);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(text);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descr) return "the header has no 'descr' (a structured dtype is not read)";
  if (!fortran) return "the header has no 'fortran_order'";
  if (!shape) return "the header has no 'shape'";
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const out: number[] = [];
  for (const d of dims) {
    if (!/^\d+L?$/.test(d)) return `the shape (${shape[1]}) is not a tuple of whole numbers`;
    out.push(Number.parseInt(d, 10));
  }
  return { descr: descr[1], fortran: fortran[1] === 'True', shape: out };
}

/** Byte size and reader of one element of a numeric dtype, or undefined when not supported. */
function numericReader(descr: string): { size: number; read: (v: DataView, off: number) => number } | undefined {
  const m = /^([<>|=])([fiub])(\d+)$/.exec(descr);
  if (!m) return undefined;
  const little = m[1] !== '>';
  const kind = m[2], size = Number(m[3]);
  if (kind === 'f' && size === 8) return { size, read: (v, o) => v.getFloat64(o, little) };
  if (kind === 'f' && size === 4) return { size, read: (v, o) => v.getFloat32(o, little) };
  if (kind === 'i' && size === 8) return { size, read: (v, o) => Number(v.getBigInt64(o, little)) };
  if (kind === 'i' && size === 4) return { size, read: (v, o) => v.getInt32(o, little) };
  if (kind === 'i' && size === 2) return { size, read: (v, o) => v.getInt16(o, little) };
  if ((kind === 'i' || kind === 'u' || kind === 'b') && size === 1) return { size, read: (v, o) => (kind === 'i' ? v.getInt8(o) : v.getUint8(o)) };
  if (kind === 'u' && size === 4) return { size, read: (v, o) => v.getUint32(o, little) };
  return undefined;
}

/** Index in C order of the element stored at position `p` of a Fortran-ordered array of `shape`. */
function cIndexOfFortran(p: number, shape: number[]): number {
  let rest = p, index = 0, stride = 1;
  const strides = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= shape[d];
  }
  for (let d = 0; d < shape.length; d++) {
    const i = rest % shape[d];
    rest = Math.floor(rest / shape[d]);
    index += i * strides[d];
  }
  return index;
}

/** Reads one .npy; a string says what is wrong with it (never throws). */
export function readNpy(bytes: Uint8Array): NpyArray | string {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) return 'not a .npy array (no \\x93NUMPY magic)';
  const major = bytes[6];
  if (major !== 1 && major !== 2 && major !== 3) return `.npy version ${major}.${bytes[7]} is not 1, 2 or 3`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lenBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenBytes) return 'the .npy header is truncated';
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = 8 + lenBytes;
  if (start + headerLen > bytes.length) return 'the .npy header is truncated';
  const headerBytes = bytes.subarray(start, start + headerLen);
  // read byte by byte (a loop, not a spread: a header may be long); version 3 allows utf-8, but only in
  // the field names of structured dtypes, which are not read: descr, fortran_order and shape are ASCII
  let headerText = '';
  for (let i = 0; i < headerBytes.length; i++) headerText += String.fromCharCode(headerBytes[i]);
  const header = parseHeader(headerText);
  if (typeof header === 'string') return header;
  let count = 1;
  for (const d of header.shape) count *= d;
  if (count > NPY_MAX_ELEMENTS) return `${count} elements is above the limit of ${NPY_MAX_ELEMENTS}`;
  const dataStart = start + headerLen;
  const unicode = /^([<>|=])U(\d+)$/.exec(header.descr);
  if (unicode) {
    const width = Number(unicode[2]), little = unicode[1] !== '>';
    if (dataStart + count * width * 4 > bytes.length) return `the data is truncated (${count} strings of ${width} characters expected)`;
    const data = new Array<string>(count);
    for (let p = 0; p < count; p++) {
      let s = '';
      for (let c = 0; c < width; c++) {
        const code = view.getUint32(dataStart + (p * width + c) * 4, little);
        if (code === 0) break;
        s += String.fromCodePoint(code);
      }
      data[header.fortran ? cIndexOfFortran(p, header.shape) : p] = s;
    }
    return { kind: 'string', shape: header.shape, data };
  }
  const reader = numericReader(header.descr);
  if (!reader) return `dtype '${header.descr}' is not read (use float64, float32, an integer, bool or a unicode string)`;
  if (dataStart + count * reader.size > bytes.length) return `the data is truncated (${count} elements of ${reader.size} bytes expected, ${bytes.length - dataStart} bytes present)`;
  const data = new Float64Array(count);
  for (let p = 0; p < count; p++) data[header.fortran ? cIndexOfFortran(p, header.shape) : p] = reader.read(view, dataStart + p * reader.size);
  return { kind: 'number', shape: header.shape, data };
}

/** One .npy of float64 values in C order (version 1.0), as numpy.save writes it. */
export function writeNpy(shape: readonly number[], data: ArrayLike<number>): Uint8Array {
  return withHeader(`'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), `, (out, off) => {
    const v = new DataView(out.buffer, out.byteOffset + off);
    for (let i = 0; i < data.length; i++) v.setFloat64(i * 8, data[i], true);
  }, data.length * 8);
}

/** One .npy of unicode strings ('<U…'), as numpy.save writes an array of str. */
export function writeNpyStrings(strings: readonly string[]): Uint8Array {
  const cps = strings.map((s) => Array.from(s, (c) => c.codePointAt(0) ?? 0));
  const width = Math.max(1, ...cps.map((c) => c.length));
  return withHeader(`'descr': '<U${width}', 'fortran_order': False, 'shape': (${strings.length},), `, (out, off) => {
    const v = new DataView(out.buffer, out.byteOffset + off);
    cps.forEach((c, i) => c.forEach((code, j) => v.setUint32((i * width + j) * 4, code, true)));
  }, strings.length * width * 4);
}

function withHeader(dict: string, fill: (out: Uint8Array, offset: number) => void, dataBytes: number): Uint8Array {
  // numpy pads the header with spaces and a newline so that the data starts on a multiple of 64 bytes
  const body = `{${dict}}`;
  const total = Math.ceil((10 + body.length + 1) / 64) * 64;
  const header = body.padEnd(total - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(total + dataBytes);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  fill(out, total);
  return out;
}
