// The files a model needs besides itself: MJCF <include> (expanded into the element tree, so that
// body ids keep following document order) and asset files (meshes, textures, height fields, skins).
// Only files inside the workspace folder are read; anything else is refused with a diagnostic on the
// element that asked for it. No network: URLs are refused, ROS `package://` paths are reduced to
// their file name as MuJoCo's URDF reader does.
import { basename, dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { Codes } from '../engine';
import { attr, descendants, parseXml, type XmlElement } from './xml';

export interface FileAccess {
  /** Absolute path of the workspace folder that contains the model: no file outside it is read. */
  workspaceRoot: string;
  /** Read a file (absolute path); undefined when it does not exist or cannot be read. */
  readFile(path: string): Uint8Array | undefined | Promise<Uint8Array | undefined>;
  /** Resolve symbolic links (so a link cannot lead outside the workspace); undefined when missing. */
  realPath?(path: string): string | undefined | Promise<string | undefined>;
  /**
   * What is at `path` (links followed), asked before every read: only regular files are read (a FIFO
   * or a device would block the read forever), and only when `size` is within the limits.
   */
  stat?(path: string): FileStat | undefined | Promise<FileStat | undefined>;
}

export interface FileStat {
  /** A regular file (not a directory, FIFO, socket or device). */
  regular: boolean;
  size: number;
}

/** One source text of the model: 0 is the model file, the others were included. */
export interface SourceFile {
  path: string;
  text: string;
  /** For included files: the <include> element of the model file that (transitively) brought it in. */
  via?: XmlElement;
}

export interface FileProblem {
  element: XmlElement;
  message: string;
  /** True when MuJoCo cannot compile the model without this file. */
  fatal: boolean;
  /** The diagnostic code: CL603 (file refused) unless given (CL613 for a limit of the whole model). */
  code?: string;
}

/**
 * Limits on files. `maxExpandedChars` and `maxExpandedElements` bound the model as a whole, with
 * every include expanded (an include graph that fans out is exponential in its depth, so the
 * depth, cycle and per-file limits alone do not bound it); they are counted as the includes are
 * expanded and stop at the <include> that crosses them.
 */
export const FILE_LIMITS = {
  maxIncludeDepth: 16,
  maxFileBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFiles: 2000,
  maxExpandedChars: 32 * 1024 * 1024,
  maxExpandedElements: 200_000,
};

/** Attributes naming asset files, per element. */
const ASSET_ATTRS: Record<string, string[]> = {
  mesh: ['file'],
  hfield: ['file'],
  skin: ['file'],
  texture: ['file', 'fileright', 'fileleft', 'fileup', 'filedown', 'filefront', 'fileback'],
  model: ['file'],
};

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface ResolvedFiles {
  sources: SourceFile[];
  /** Files for MuJoCo's virtual file system: name relative to the model's folder → bytes. */
  vfs: Map<string, Uint8Array>;
  problems: FileProblem[];
}

/**
 * Expand the MJCF includes of `root` in place (their elements replace the <include>, with `source`
 * set to the included file's index) and collect every asset file the model names.
 */
export async function resolveFiles(modelPath: string, root: XmlElement, mainText: string, access: FileAccess, urdf: boolean): Promise<ResolvedFiles> {
  const dir = dirname(resolve(modelPath));
  const sources: SourceFile[] = [{ path: resolve(modelPath), text: mainText }];
  const vfs = new Map<string, Uint8Array>();
  const problems: FileProblem[] = [];
  let total = 0;
  // The model as a whole: characters and elements of every expansion (the model file's own first).
  let expandedChars = mainText.length;
  let expandedElements = countElements(root);
  let limitHit = false;
  /** Files already read, by absolute path: a file included many times is read once. */
  const cache = new Map<string, { abs: string; data: Uint8Array; text?: string }>();
  const wsRoot = resolve(access.workspaceRoot);
  const wsReal = (await access.realPath?.(wsRoot)) ?? wsRoot;

  /** Read `name` (relative to the model's folder, or absolute) if allowed. */
  const read = async (name: string, element: XmlElement, what: string, fatal: boolean): Promise<{ abs: string; data: Uint8Array; text?: string } | undefined> => {
    const refuse = (message: string) => {
      problems.push({ element, message, fatal });
      return undefined;
    };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name) && !/^file:\/\//i.test(name)) return refuse(`${what} ${JSON.stringify(name)} is a URL: only files inside the workspace folder are read.`);
    const plain = name.replace(/^file:\/\//i, '');
    const abs = resolve(dir, plain);
    if (!inside(wsRoot, abs)) return refuse(`${what} ${JSON.stringify(name)} is outside the workspace folder (${wsRoot}) and is not read.`);
    const real = (await access.realPath?.(abs)) ?? abs;
    if (!inside(wsReal, real)) return refuse(`${what} ${JSON.stringify(name)} is a link to ${real}, outside the workspace folder, and is not read.`);
    const cached = cache.get(abs);
    if (cached) return cached;
    if (vfs.size >= FILE_LIMITS.maxFiles) return refuse(`More than ${FILE_LIMITS.maxFiles} files: ${what} ${JSON.stringify(name)} is not read.`);
    let info: FileStat | undefined;
    try {
      info = await access.stat?.(abs);
    } catch {
      info = undefined;
    }
    if (access.stat && !info) return refuse(`${what} ${JSON.stringify(name)} was not found (looked for ${abs}).`);
    if (info && !info.regular) return refuse(`${what} ${JSON.stringify(name)} is not a regular file (a directory, FIFO, socket or device) and is not read.`);
    if (info && (info.size > FILE_LIMITS.maxFileBytes || total + info.size > FILE_LIMITS.maxTotalBytes)) return refuse(`${what} ${JSON.stringify(name)} is too large to read (${info.size} bytes; at most ${FILE_LIMITS.maxFileBytes} per file, ${FILE_LIMITS.maxTotalBytes} in all).`);
    let data: Uint8Array | undefined;
    try {
      data = await access.readFile(abs);
    } catch {
      data = undefined;
    }
    if (!data) return refuse(`${what} ${JSON.stringify(name)} was not found or is not a regular file (looked for ${abs}).`);
    if (data.byteLength > FILE_LIMITS.maxFileBytes || total + data.byteLength > FILE_LIMITS.maxTotalBytes) return refuse(`${what} ${JSON.stringify(name)} is too large to read.`);
    total += data.byteLength;
    vfs.set(toVfsName(relative(dir, abs)), data);
    const entry: { abs: string; data: Uint8Array; text?: string } = { abs, data };
    cache.set(abs, entry);
    return entry;
  };
  const overLimit = (element: XmlElement, what: string) => {
    if (!limitHit) problems.push({ element, message: what, fatal: true, code: Codes.modelLimit });
    limitHit = true;
  };

  if (!urdf) await expandIncludes(root, 0, [resolve(modelPath)]);

  async function expandIncludes(el: XmlElement, depth: number, chain: string[]): Promise<void> {
    for (let k = 0; k < el.children.length; k++) {
      const child = el.children[k];
      if (child.name !== 'include') {
        await expandIncludes(child, depth, chain);
        continue;
      }
      const anchor = child.source === 0 ? child : (sources[child.source].via ?? child);
      if (limitHit) {
        el.children.splice(k--, 1);
        continue;
      }
      const file = attr(child, 'file');
      if (file === undefined) {
        problems.push({ element: anchor, message: '<include> needs a `file` attribute.', fatal: true });
        continue;
      }
      if (depth >= FILE_LIMITS.maxIncludeDepth) {
        problems.push({ element: anchor, message: `Includes are nested more than ${FILE_LIMITS.maxIncludeDepth} deep (at ${JSON.stringify(file)}).`, fatal: true });
        continue;
      }
      const got = await read(file, anchor, 'Included file', true);
      if (!got) continue;
      if (chain.includes(got.abs)) {
        problems.push({ element: anchor, message: `Included file ${JSON.stringify(file)} includes itself (${chain.map((p) => basename(p)).join(' → ')} → ${basename(got.abs)}).`, fatal: true });
        continue;
      }
      const text = (got.text ??= new TextDecoder('utf-8', { fatal: false }).decode(got.data));
      // Counted before parsing: a file included a million times is refused at the include that crosses the limit.
      if (expandedChars + text.length > FILE_LIMITS.maxExpandedChars) {
        overLimit(anchor, `The model with its includes is larger than ${FILE_LIMITS.maxExpandedChars / 1024 / 1024} MiB of text (at ${JSON.stringify(file)}, expansion ${sources.length}): includes are not expanded further.`);
        continue;
      }
      expandedChars += text.length;
      const index = sources.length;
      sources.push({ path: got.abs, text, via: anchor });
      const doc = parseXml(text, index);
      if (doc.errors.length || !doc.root) {
        const e = doc.errors[0];
        const line = e ? text.slice(0, e.offset).split(/\r\n|\r|\n/).length : 1;
        problems.push({ element: anchor, message: `Included file ${JSON.stringify(file)} is not well-formed XML (line ${line}: ${e?.message ?? 'empty'}).`, fatal: true });
        continue;
      }
      if (doc.root.name !== 'mujoco') {
        problems.push({ element: anchor, message: `Included file ${JSON.stringify(file)} must have a <mujoco> root element, not <${doc.root.name}>.`, fatal: true });
        continue;
      }
      expandedElements += countElements(doc.root) - 1;
      if (expandedElements > FILE_LIMITS.maxExpandedElements) {
        overLimit(anchor, `The model with its includes has more than ${FILE_LIMITS.maxExpandedElements} elements (at ${JSON.stringify(file)}, expansion ${sources.length - 1}): includes are not expanded further.`);
        continue;
      }
      // Expand its own includes, then replace the <include> by the included root's children (MuJoCo's semantics).
      await expandIncludes(doc.root, depth + 1, [...chain, got.abs]);
      const inserted = doc.root.children;
      for (const c of inserted) c.parent = el;
      // Not splice(k, 1, ...inserted): spreading 10⁵ arguments overflows the call stack.
      el.children = el.children.slice(0, k).concat(inserted, el.children.slice(k + 1));
      k += inserted.length - 1;
    }
  }

  // Asset files: relative to meshdir / texturedir / assetdir of <compiler>, else the model's folder.
  const compiler = [...descendants(root)].filter((e) => e.name === 'compiler');
  const dirAttr = (name: string) => compiler.map((c) => attr(c, name)).find((v) => v !== undefined);
  const assetdir = dirAttr('assetdir');
  const meshdir = dirAttr('meshdir') ?? assetdir;
  const texturedir = dirAttr('texturedir') ?? assetdir;
  for (const el of descendants(root)) {
    if (urdf && el.name === 'mesh' && el.attrs.has('filename')) {
      // MuJoCo discards a URDF's <visual> geoms (discardvisual): their meshes are read when present, never required.
      const fatal = !el.parent || el.parent.parent?.name !== 'visual';
      const given = attr(el, 'filename')!;
      const format = unsupportedMeshFormat(given);
      if (format) {
        if (fatal) problems.push({ element: el, message: `Mesh file ${JSON.stringify(given)}: unsupported mesh format ${format} (MuJoCo reads .stl, .obj and .msh): convert it to .stl or .obj.`, fatal });
        continue;
      }
      const found = await urdfMeshPath(given, meshdir);
      await read(found, el, 'Mesh file', fatal);
      continue;
    }
    const names = ASSET_ATTRS[el.name];
    if (!names || urdf) continue;
    for (const a of names) {
      const v = attr(el, a);
      if (v === undefined || v === '') continue;
      const base = el.name === 'mesh' || el.name === 'skin' ? meshdir : el.name === 'texture' ? texturedir : el.name === 'hfield' ? assetdir : undefined;
      const format = el.name === 'mesh' ? unsupportedMeshFormat(v) : undefined;
      if (format) {
        problems.push({ element: el, message: `Mesh file ${JSON.stringify(v)}: unsupported mesh format ${format} (MuJoCo reads .stl, .obj and .msh): convert it to .stl or .obj.`, fatal: true });
        continue;
      }
      await read(base && !isAbsolute(v) ? join(base, v) : v, el, `Asset file (${el.name} ${a})`, true);
    }
  }
  return { sources, vfs, problems };

  /** The folders named `name` among the URDF's folder and its ancestors inside the workspace (ROS package roots). */
  function packageFolders(name: string): string[] {
    const out: string[] = [];
    for (let d = dir; inside(wsRoot, d); d = dirname(d)) {
      if (basename(d) === name) out.push(d);
      if (dirname(d) === d) break;
    }
    return out;
  }

  /**
   * Where a URDF mesh is on disk. MuJoCo's URDF reader strips the directories (strippath) and finds
   * the file by name in its VFS, so any of these is the file MuJoCo reads: meshdir + the name (its
   * documented place), the path as written relative to the URDF (`meshes/link_0.obj`; after
   * `package://<pkg>/`, relative to the URDF's folder or an ancestor folder named <pkg>), else the
   * bare name next to the URDF — the first that exists; that last one when none does (its "not
   * found" names it).
   */
  async function urdfMeshPath(given: string, meshdirOf: string | undefined): Promise<string> {
    const pkg = /^package:\/\/([^/]*)\/(.*)$/.exec(given);
    const rel = pkg ? pkg[2] : given.replace(/^file:\/\//i, '');
    const file = basename(rel);
    const candidates = [
      ...(meshdirOf ? [join(meshdirOf, file)] : []),
      rel,
      ...(pkg ? packageFolders(pkg[1]).map((root) => relative(dir, join(root, pkg[2]))) : []),
      file,
    ];
    for (const c of candidates) {
      const abs = resolve(dir, c);
      if (!inside(wsRoot, abs)) continue;
      try {
        if ((await access.readFile(abs)) !== undefined) return c;
      } catch {
        // unreadable: try the next place
      }
    }
    return candidates[candidates.length - 1];
  }
}

/** The extension of a mesh file MuJoCo cannot read (COLLADA .dae and the like), or undefined. */
export function unsupportedMeshFormat(name: string): string | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  if (!m) return undefined;
  const ext = m[1].toLowerCase();
  return ext === 'stl' || ext === 'obj' || ext === 'msh' ? undefined : `.${ext}`;
}

/** Elements in the tree under `el`, `el` included. */
function countElements(el: XmlElement): number {
  let n = 1;
  for (const c of el.children) n += countElements(c);
  return n;
}

/** A path relative to the model folder, '/'-separated, as the VFS entry name. */
export const toVfsName = (rel: string): string => normalize(rel).split(/[\\/]+/).join('/');
