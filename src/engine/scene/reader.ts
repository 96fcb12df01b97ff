// The scene parser's value readers: each reads one field of an object node, reports what is wrong
// with it (a stable code, the exact range, quick fixes where obvious) and returns the value, or BAD
// after an error. The section readers (solver.ts, bodies.ts, constraints.ts) are built on them.
import { getNodeValue, type Node } from 'jsonc-parser';
import { Codes, type Code } from '../core/codes';
import { exactNumber } from '../core/format';
import { quatNorm } from '../core/math';
import type { Diagnostic, Fix, Quat, Range, RelatedInformation, Severity, Vec3 } from '../types';
import { DEFAULT_ORIENTATION, QUATERNION_TOLERANCE } from './fields';
import { type LineIndex, closest, removePropertyEdit, replaceNodeEdit } from './text';
import type { JsonPath } from './spec';

export type Data = Record<string, unknown>;

/** A value that failed validation (a diagnostic was reported, or the text is broken there). */
export const BAD: unique symbol = Symbol('bad');
export type Bad = typeof BAD;

/** An object's fields, with duplicate keys resolved (last one wins). */
export interface FieldObject {
  node: Node;
  path: JsonPath;
  /** Property node per key. */
  props: Map<string, Node>;
}

export interface NumberChecks {
  min?: number;
  /** `min` itself is not allowed. */
  exclusiveMin?: boolean;
  max?: number;
  integer?: boolean;
  /** The code for a value outside the range (default CL005). */
  rangeCode?: Code;
  /** What is allowed, for the message, e.g. "greater than 0". */
  expect?: string;
  /** The largest |value| the engine accepts (ranges.ts): beyond it CL005, before the sign checks. */
  magnitude?: { max: number; text: string; what: string };
}

/** Fields known in another context (e.g. another constraint type), with the reason shown. */
export interface Elsewhere {
  fields: readonly string[];
  why: (f: string) => string;
}

/** What a node is, for messages: "a number", "an object", … */
export const describe = (node: Node): string => {
  switch (node.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return node.value ? '`true`' : '`false`';
    case 'null':
      return '`null`';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'a property';
  }
};

/** Values in messages and quick fixes: exact (a fix writes them back into the JSON). */
export const fmt = exactNumber;
/** A name or field in backticks, for messages. */
export const quote = (s: string): string => '`' + s + '`';

/** Reads fields of the scene document and collects the diagnostics, in the order they are found. */
export class FieldReader {
  readonly diagnostics: Diagnostic[] = [];
  /** Errors reported so far (a section compares it before and after to know whether it failed). */
  errorCount = 0;
  /** The document's root node (its range is the opening brace, not the whole file). */
  root: Node | undefined;

  constructor(readonly index: LineIndex) {}

  /** "a number", "an object", … */
  describe(node: Node): string {
    return describe(node);
  }

  // ------------------------------------------------------------------------------ reporting

  /** Add a diagnostic on a node's range (or a given range). */
  report(
    severity: Severity,
    code: Code,
    message: string,
    at: Node | Range,
    data?: Data,
    extra?: { related?: RelatedInformation[]; fixes?: Fix[] },
  ): void {
    const range = 'start' in at ? at : this.index.nodeRange(at);
    const d: Diagnostic = { severity, code, message, range };
    if (extra?.related && extra.related.length > 0) d.related = extra.related;
    if (extra?.fixes && extra.fixes.length > 0) d.fixes = extra.fixes;
    if (data) d.data = data;
    this.diagnostics.push(d);
    if (severity === 'error') this.errorCount++;
  }

  /** The diagnostics in source order (stable: same position keeps the order of reporting). */
  sorted(): Diagnostic[] {
    const withIndex = this.diagnostics.map((d, i) => ({ d, i }));
    withIndex.sort(
      (a, b) =>
        a.d.range.start.line - b.d.range.start.line ||
        a.d.range.start.character - b.d.range.start.character ||
        a.i - b.i,
    );
    return withIndex.map((x) => x.d);
  }

  related(message: string, node: Node): RelatedInformation {
    return { message, range: this.index.nodeRange(node) };
  }

  /** The range of an object's opening brace (root) or of the whole object (nested). */
  objectRange(node: Node): Range {
    return node === this.root ? this.index.range(node.offset, 1) : this.index.nodeRange(node);
  }

  // ------------------------------------------------------------------------------ objects

  /**
   * Collect an object's properties: duplicate keys (CL006), unknown keys (CL003, with "Remove" and
   * "Rename" fixes). `elsewhere` lists fields known in another context (e.g. another constraint type),
   * with the reason shown in the message.
   */
  object(node: Node, path: JsonPath, known: readonly string[], data: Data, elsewhere?: Elsewhere): FieldObject {
    const props = new Map<string, Node>();
    const first = new Map<string, Node>();
    const present = new Set((node.children ?? []).map((p) => String(p.children?.[0]?.value)));
    for (const p of node.children ?? []) {
      if (p.type !== 'property' || !p.children || p.children.length === 0) continue;
      const keyNode = p.children[0];
      const key = String(keyNode.value);
      const previous = props.get(key);
      if (previous) {
        const firstKey = first.get(key)?.children?.[0] ?? previous.children![0];
        const removal = removePropertyEdit(this.index, previous);
        this.report(
          'warning',
          Codes.duplicateKey,
          `Duplicate field ${quote(key)}: only this last one is used. Remove the other one.`,
          keyNode,
          { ...data, path: [...path, key], field: key },
          {
            related: [this.related(`First ${quote(key)} here`, firstKey)],
            fixes: removal ? [{ title: `Remove the earlier ${quote(key)}`, edits: [removal], preferred: true }] : [],
          },
        );
      } else {
        first.set(key, p);
      }
      props.set(key, p);
      if (!known.includes(key)) this.unknownField(present, p, keyNode, key, path, known, data, elsewhere);
    }
    return { node, path, props };
  }

  private unknownField(
    present: ReadonlySet<string>,
    prop: Node,
    keyNode: Node,
    key: string,
    path: JsonPath,
    known: readonly string[],
    data: Data,
    elsewhere?: Elsewhere,
  ): void {
    const fixes: Fix[] = [];
    const isElsewhere = elsewhere?.fields.includes(key) ?? false;
    const suggestion = isElsewhere ? undefined : closest(key, known.filter((k) => !present.has(k) && k !== '$schema'), 2, 1)[0];
    if (suggestion !== undefined) {
      fixes.push({ title: `Rename to ${quote(suggestion)}`, edits: [replaceNodeEdit(this.index, keyNode, JSON.stringify(suggestion))], preferred: true });
    }
    const removal = removePropertyEdit(this.index, prop);
    if (removal) fixes.push({ title: `Remove field ${quote(key)}`, edits: [removal] });
    const message = isElsewhere
      ? `${elsewhere!.why(key)} It is ignored; remove it.`
      : suggestion !== undefined
        ? `Unknown field ${quote(key)} (did you mean ${quote(suggestion)}?). It is ignored.`
        : `Unknown field ${quote(key)}; it is ignored. Known fields here: ${known.join(', ')}.`;
    this.report('warning', Codes.unknownField, message, keyNode, { ...data, path: [...path, key], field: key, ...(suggestion ? { suggestion } : {}) }, { fixes });
  }

  /** The value node of a field; `undefined` when absent, BAD when the property has no value (syntax error). */
  valueOf(o: FieldObject, key: string): Node | undefined | Bad {
    const p = o.props.get(key);
    if (!p) return undefined;
    const v = p.children?.[1];
    return v ?? BAD;
  }

  missing(o: FieldObject, key: string, message: string, data: Data): Bad {
    this.report('error', Codes.missingField, message, this.objectRange(o.node), { ...data, path: o.path, field: key });
    return BAD;
  }

  // ------------------------------------------------------------------------------ values

  typeError(node: Node, path: JsonPath, message: string, data: Data, fixes?: Fix[]): Bad {
    this.report('error', Codes.schemaType, message, node, { ...data, path }, { fixes });
    return BAD;
  }

  /** A finite number; range violations → `checks.rangeCode` (CL005 by default). */
  numberNode(node: Node, path: JsonPath, label: string, checks: NumberChecks, data: Data): number | Bad {
    if (node.type !== 'number') {
      const fixes: Fix[] = [];
      if (node.type === 'string') {
        const s = String(node.value).trim();
        const n = s === '' ? NaN : Number(s);
        if (Number.isFinite(n)) fixes.push({ title: `Convert to the number ${fmt(n)}`, edits: [replaceNodeEdit(this.index, node, fmt(n))], preferred: true });
      }
      return this.typeError(node, path, `${label} must be a number, not ${describe(node)}.`, data, fixes);
    }
    const v = getNodeValue(node) as number;
    if (!Number.isFinite(v)) return this.typeError(node, path, `${label} must be a finite number (this one overflows to infinity).`, data);
    if (checks.magnitude && Math.abs(v) > checks.magnitude.max) {
      const { max, text, what } = checks.magnitude;
      this.report('error', Codes.invalidValue, `${label} must be within ±${text} ${what}; it is ${fmt(v)}.`, node, { ...data, path, value: v, max });
      return BAD;
    }
    const low = checks.min !== undefined && (checks.exclusiveMin ? v <= checks.min : v < checks.min);
    const high = checks.max !== undefined && v > checks.max;
    if (low || high) {
      const expect = checks.expect ?? this.rangeText(checks);
      this.report('error', checks.rangeCode ?? Codes.invalidValue, `${label} must be ${expect}; it is ${fmt(v)}.`, node, { ...data, path, value: v });
      return BAD;
    }
    if (checks.integer && !Number.isInteger(v)) {
      const fixes: Fix[] = [{ title: `Round to ${Math.round(v)}`, edits: [replaceNodeEdit(this.index, node, fmt(Math.round(v)))], preferred: true }];
      this.report('error', Codes.invalidValue, `${label} must be a whole number; it is ${fmt(v)}.`, node, { ...data, path, value: v }, { fixes });
      return BAD;
    }
    return v;
  }

  private rangeText(c: NumberChecks): string {
    const parts: string[] = [];
    if (c.min !== undefined) parts.push(`${c.exclusiveMin ? 'greater than' : 'at least'} ${fmt(c.min)}`);
    if (c.max !== undefined) parts.push(`at most ${fmt(c.max)}`);
    return parts.join(' and ');
  }

  number(o: FieldObject, key: string, label: string, checks: NumberChecks, data: Data): number | undefined | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined || node === BAD) return node;
    return this.numberNode(node, [...o.path, key], label, checks, data);
  }

  string(o: FieldObject, key: string, label: string, data: Data): { value: string; node: Node } | undefined | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined || node === BAD) return node;
    if (node.type !== 'string') {
      const fixes: Fix[] = [];
      if (node.type === 'number' || node.type === 'boolean') {
        const s = JSON.stringify(String(node.value));
        fixes.push({ title: `Quote as ${s}`, edits: [replaceNodeEdit(this.index, node, s)], preferred: true });
      }
      return this.typeError(node, [...o.path, key], `${label} must be a string in double quotes, not ${describe(node)}.`, data, fixes);
    }
    return { value: String(node.value), node };
  }

  boolean(o: FieldObject, key: string, label: string, data: Data): boolean | undefined | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined || node === BAD) return node;
    if (node.type !== 'boolean') {
      const fixes: Fix[] = [];
      if (node.type === 'string' && (node.value === 'true' || node.value === 'false')) {
        fixes.push({ title: `Change to ${node.value}`, edits: [replaceNodeEdit(this.index, node, String(node.value))], preferred: true });
      }
      return this.typeError(node, [...o.path, key], `${label} must be \`true\` or \`false\`, not ${describe(node)}.`, data, fixes);
    }
    return node.value === true;
  }

  enumeration<T extends string>(o: FieldObject, key: string, label: string, allowed: readonly T[], data: Data): T | undefined | Bad {
    const s = this.string(o, key, label, data);
    if (s === undefined || s === BAD) return s;
    if ((allowed as readonly string[]).includes(s.value)) return s.value as T;
    const fixes = closest(s.value, allowed, 3, 3).map((c, i) => ({
      title: `Change to ${quote(c)}`,
      edits: [replaceNodeEdit(this.index, s.node, JSON.stringify(c))],
      preferred: i === 0,
    }));
    this.report(
      'error',
      Codes.invalidValue,
      `${label} ${JSON.stringify(s.value)} is not allowed. Use one of: ${allowed.map((a) => JSON.stringify(a)).join(', ')}.`,
      s.node,
      { ...data, path: [...o.path, key], value: s.value, allowed: [...allowed] },
      { fixes },
    );
    return BAD;
  }

  /** An array of exactly `n` finite numbers. */
  numbers(node: Node, path: JsonPath, label: string, n: number, shape: string, data: Data, checks: NumberChecks = {}): number[] | Bad {
    if (node.type !== 'array') return this.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
    const items = node.children ?? [];
    if (items.length !== n) {
      return this.typeError(node, path, `${label} must be ${shape}: it has ${items.length} component${items.length === 1 ? '' : 's'} instead of ${n}.`, data);
    }
    const out: number[] = [];
    let bad = false;
    items.forEach((item, i) => {
      const v = this.numberNode(item, [...path, i], `Component ${i} of ${label}`, checks, data);
      if (v === BAD) bad = true;
      else out.push(v);
    });
    return bad ? BAD : out;
  }

  vec3(o: FieldObject, key: string, label: string, def: Readonly<Vec3>, data: Data, checks: NumberChecks = {}): Vec3 | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined) return [def[0], def[1], def[2]];
    if (node === BAD) return BAD;
    const v = this.numbers(node, [...o.path, key], label, 3, 'a 3-vector `[x, y, z]`', data, checks);
    return v === BAD ? BAD : [v[0], v[1], v[2]];
  }


  orientation(o: FieldObject, label: string, data: Data, key = 'orientation'): Quat | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined) return [...DEFAULT_ORIENTATION] as Quat;
    if (node === BAD) return BAD;
    const path = [...o.path, key];
    const v = this.numbers(node, path, label, 4, 'a quaternion `[x, y, z, w]` (scalar last)', data);
    if (v === BAD) return BAD;
    const q: Quat = [v[0], v[1], v[2], v[3]];
    const m = Math.max(...q.map(Math.abs));
    if (!(m > 0)) {
      this.report('error', Codes.invalidValue, `${label} is the zero quaternion, which is not a rotation. Use [0, 0, 0, 1] for no rotation.`, node, { ...data, path }, {
        fixes: [{ title: 'Use the identity [0, 0, 0, 1]', edits: [replaceNodeEdit(this.index, node, '[0, 0, 0, 1]')], preferred: true }],
      });
      return BAD;
    }
    const scaled: Quat = [q[0] / m, q[1] / m, q[2] / m, q[3] / m];
    const sn = quatNorm(scaled);
    const n = m * sn;
    const unit: Quat = [scaled[0] / sn, scaled[1] / sn, scaled[2] / sn, scaled[3] / sn];
    if (Math.abs(n - 1) > QUATERNION_TOLERANCE) {
      this.report(
        'warning',
        Codes.nonUnitQuaternion,
        `${label} has length ${fmt(n)}, not 1; the normalised quaternion is used. Quaternions are [x, y, z, w], scalar last.`,
        node,
        { ...data, path, norm: n, normalized: unit },
        { fixes: [{ title: 'Normalise quaternion', edits: [replaceNodeEdit(this.index, node, `[${unit.map(fmt).join(', ')}]`)], preferred: true }] },
      );
    }
    return unit;
  }
}
