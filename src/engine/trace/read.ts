// One door for every trace file: the format is told by the bytes (a zip is an .npz, HDF5's signature
// an Axion log or an FCLib problem), never by the file's name.
import { readAxion } from './axion';
import { readFclib } from './fclib';
import { hdf5TruncatedAt, isHdf5, type Hdf5Open } from './hdf5';
import { isZip, readNpzTrace } from './npz';
import { DEFAULT_TRACE_LIMITS, unreadable, type TraceLimits, type TraceReadResult } from './source';

export interface ReadTraceOptions {
  /** Opens HDF5 bytes (the CLI and the extension pass h5wasm's); without it an HDF5 trace is refused with a diagnostic. */
  openHdf5?: Hdf5Open;
  limits?: Partial<TraceLimits>;
  /** Axion logs every world of a batch: the one analysed (default 0). */
  world?: number;
}

/** Reads a trace file's bytes; never throws. */
export function readTrace(bytes: Uint8Array, name: string, opts: ReadTraceOptions = {}): TraceReadResult {
  const limits = { ...DEFAULT_TRACE_LIMITS, ...opts.limits };
  if (bytes.length > limits.bytes) return { diagnostics: [unreadable(`the file is ${bytes.length} bytes, above the limit of ${limits.bytes}`)] };
  if (isZip(bytes)) return readNpzTrace(bytes, name, limits);
  if (!isHdf5(bytes)) return { diagnostics: [unreadable('not a trace file: neither an .npz (zip) nor an HDF5 file')] };
  if (!opts.openHdf5) return { diagnostics: [unreadable('an HDF5 trace needs the HDF5 reader, which is not available here')] };
  const eof = hdf5TruncatedAt(bytes);
  if (eof !== undefined) return { diagnostics: [unreadable(`the HDF5 file is truncated: ${bytes.length} bytes of the ${eof} its superblock records`)] };
  const file = opts.openHdf5(bytes);
  if ('error' in file) return { diagnostics: [unreadable(`the HDF5 file cannot be opened (truncated or damaged?): ${file.error}`)] };
  try {
    return (
      readFclib(file, name, limits) ??
      readAxion(file, name, limits, opts.world ?? 0) ?? {
        diagnostics: [unreadable("an HDF5 file with neither FCLib's /fclib_global or /fclib_local nor Axion's /timestep_NNNN groups")],
      }
    );
  } catch (e) {
    // the HDF5 reader is handed in: one that throws on a damaged file still gives a diagnostic
    return { diagnostics: [unreadable(`the HDF5 file is damaged: ${e instanceof Error ? e.message : String(e)}`)] };
  } finally {
    try {
      file.close();
    } catch {
      // nothing more to say about a file already found damaged
    }
  }
}
