// Scene format v1: JSONC text → validated SceneSpec + diagnostics with exact ranges and quick fixes.
// `parseScene` never throws. See docs/scene-format.md for the format and the diagnostic table.
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { Codes, type Code } from '../diagnostics';
import { add, mat3MulVec, norm, normalize, quatNorm, quatToMat3, sub } from '../math';
import type { Diagnostic, Fix, Mat3, Quat, Range, RelatedInformation, Severity, Vec3 } from '../types';
import {
  BODY_FIELDS,
  CONSTRAINT_ALL_FIELDS,
  CONSTRAINT_TYPE_FIELDS,
  DEFAULT_GRAVITY,
  DEFAULT_HINGE_AXIS,
  DEFAULT_INERTIA_DIAGONAL,
  DEFAULT_ORIENTATION,
  DEFAULT_SCENE_NAME,
  DEFAULT_SLIDER_AXIS,
  DEFAULT_SOLVER,
  FORMULATIONS,
  MAX_COUPLER_COEFFICIENTS,
  INERTIA_SYMMETRY_TOLERANCE,
  QUATERNION_TOLERANCE,
  SCENE_FIELDS,
  SOLVE_METHODS,
  SOLVER_FIELDS,
  STABILIZATIONS,
  WORLD,
  ZERO_LENGTH,
  constraintFields,
} from './fields';
import { LineIndex, closest, createSourceMap, removePropertyEdit, replaceNodeEdit } from './text';
import {
  CONSTRAINT_TYPES,
  type BodySpec,
  type CoupledJoint,
  type ConstraintSpec,
  type ConstraintType,
  type JsonPath,
  type ParseResult,
  type SceneSpec,
  type SolverSettings,
} from './types';

/** Marks the CL900 diagnostic of an unexpected internal failure (a bug): `data.internalError === true`. */
export const INTERNAL_ERROR_KEY = 'internalError';

/** Parse and validate a scene file (JSON with comments). Never throws. */
export function parseScene(text: string): ParseResult {
  const src = typeof text === 'string' ? text : '';
  try {
    return new SceneParser(src).run();
  } catch (e) {
    // A bug in the parser: still return a well-formed result rather than breaking the editor.
    const index = new LineIndex(src);
    const diagnostics: Diagnostic[] = [
      {
        severity: 'error',
        code: Codes.internalError,
        message: `Internal error while reading the scene: ${e instanceof Error ? e.message : String(e)}. This is a bug in Constraint Lens; please report it with the scene file.`,
        range: index.range(0, 0),
        data: { [INTERNAL_ERROR_KEY]: true },
      },
    ];
    return { scene: undefined, diagnostics, sourceMap: createSourceMap(undefined, index), hasErrors: true };
  }
}

// ---------------------------------------------------------------------------------------------

type Data = Record<string, unknown>;

/** A value that failed validation (a diagnostic was reported, or the text is broken there). */
const BAD: unique symbol = Symbol('bad');
type Bad = typeof BAD;

/** An object's fields, with duplicate keys resolved (last one wins). */
interface Obj {
  node: Node;
  path: JsonPath;
  /** Property node per key. */
  props: Map<string, Node>;
}

interface NumberChecks {
  min?: number;
  /** `min` itself is not allowed. */
  exclusiveMin?: boolean;
  max?: number;
  integer?: boolean;
  /** The code for a value outside the range (default CL005). */
  rangeCode?: Code;
  /** What is allowed, for the message, e.g. "greater than 0". */
  expect?: string;
}

/** Old names of constraint types, offered as fixes for an unknown `type`. */
const TYPE_ALIASES: Record<string, ConstraintType> = {
  rod: 'distance',
  spherical: 'ball',
  'ball-socket': 'ball',
  revolute: 'hinge',
  weld: 'fixed',
  prismatic: 'slider',
};

const PARSE_ERROR_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'Unexpected symbol. Check for a missing quote, comma or bracket.',
  InvalidNumberFormat: 'Invalid number. Numbers are written like 2, -0.5 or 1e-3.',
  PropertyNameExpected: 'Expected a property name in double quotes.',
  ValueExpected: 'Expected a value (a number, string, array, object, true, false or null).',
  ColonExpected: 'Expected `:` after the property name.',
  CommaExpected: 'Expected a comma.',
  CloseBraceExpected: 'Expected `}` to close the object.',
  CloseBracketExpected: 'Expected `]` to close the array.',
  EndOfFileExpected: 'Unexpected content after the end of the scene object.',
  InvalidCommentToken: 'Invalid comment.',
  UnexpectedEndOfComment: 'Unterminated block comment: add `*/`.',
  UnexpectedEndOfString: 'Unterminated string: add the closing `"`.',
  UnexpectedEndOfNumber: 'Unterminated number.',
  InvalidUnicode: 'Invalid unicode escape in a string (use \\uXXXX).',
  InvalidEscapeCharacter: 'Invalid escape character in a string.',
  InvalidCharacter: 'Invalid character in a string: control characters must be escaped.',
};

const describe = (node: Node): string => {
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

const fmt = (n: number): string => String(n);
const quote = (s: string): string => '`' + s + '`';

interface DeclaredBody {
  index: number;
  nameNode: Node;
  valid: boolean;
}

interface NamedConstraint {
  name: string;
  node: Node;
  index: number;
}

/** A coupler whose joint names are resolved once every constraint has been read. */
interface PendingCoupler {
  index: number;
  name: string;
  joints: { value: string; node: Node }[];
  coefficients: number[];
  initial: number[];
  data: Data;
}

class SceneParser {
  private readonly index: LineIndex;
  private readonly diagnostics: Diagnostic[] = [];
  private errorCount = 0;
  private root: Node | undefined;
  private readonly couplers: PendingCoupler[] = [];

  constructor(private readonly text: string) {
    this.index = new LineIndex(text);
  }

  run(): ParseResult {
    const errors: ParseError[] = [];
    // A byte order mark is not JSON; parse a same-length text with a space in its place.
    const parsed = this.text.charCodeAt(0) === 0xfeff ? ' ' + this.text.slice(1) : this.text;
    try {
      this.root = parseTree(parsed, errors, { allowTrailingComma: true, disallowComments: false });
    } catch {
      // jsonc-parser recurses: absurdly deep nesting overflows the stack.
      this.root = undefined;
      this.report('error', Codes.jsonSyntax, 'The file could not be read: arrays or objects are nested too deeply.', this.index.range(0, 0));
    }
    for (const e of errors) {
      const name = printParseErrorCode(e.error);
      const message = PARSE_ERROR_MESSAGES[name] ?? `Syntax error (${name}).`;
      this.report('error', Codes.jsonSyntax, message, this.index.range(e.offset, e.length), { parseError: name });
    }
    const sourceMap = createSourceMap(this.root, this.index);
    let scene: SceneSpec | undefined;
    if (this.root && this.root.type === 'object') {
      scene = this.scene(this.root);
    } else if (this.root) {
      this.report(
        'error',
        Codes.schemaType,
        `A scene must be a JSON object \`{ "bodies": [...], ... }\`, not ${describe(this.root)}.`,
        this.index.nodeRange(this.root),
        { path: [] },
      );
    } else if (this.errorCount === 0) {
      this.report('error', Codes.schemaType, 'The file is empty: a scene is a JSON object `{ "bodies": [...] }`.', this.index.range(0, 0), { path: [] });
    }
    const diagnostics = this.sorted();
    return { scene, diagnostics, sourceMap, hasErrors: diagnostics.some((d) => d.severity === 'error') };
  }

  // ------------------------------------------------------------------------------ reporting

  private report(
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

  private sorted(): Diagnostic[] {
    const withIndex = this.diagnostics.map((d, i) => ({ d, i }));
    withIndex.sort(
      (a, b) =>
        a.d.range.start.line - b.d.range.start.line ||
        a.d.range.start.character - b.d.range.start.character ||
        a.i - b.i,
    );
    return withIndex.map((x) => x.d);
  }

  private related(message: string, node: Node): RelatedInformation {
    return { message, range: this.index.nodeRange(node) };
  }

  /** The range of an object's opening brace (root) or of the whole object (nested). */
  private objectRange(node: Node): Range {
    return node === this.root ? this.index.range(node.offset, 1) : this.index.nodeRange(node);
  }

  // ------------------------------------------------------------------------------ objects

  /**
   * Collect an object's properties: duplicate keys (CL006), unknown keys (CL003, with "Remove" and
   * "Rename" fixes). `elsewhere` lists fields known in another context (e.g. another constraint type),
   * with the reason shown in the message.
   */
  private object(node: Node, path: JsonPath, known: readonly string[], data: Data, elsewhere?: { fields: readonly string[]; why: (f: string) => string }): Obj {
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
    elsewhere?: { fields: readonly string[]; why: (f: string) => string },
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
  private valueOf(o: Obj, key: string): Node | undefined | Bad {
    const p = o.props.get(key);
    if (!p) return undefined;
    const v = p.children?.[1];
    return v ?? BAD;
  }

  private missing(o: Obj, key: string, message: string, data: Data): Bad {
    this.report('error', Codes.missingField, message, this.objectRange(o.node), { ...data, path: o.path, field: key });
    return BAD;
  }

  // ------------------------------------------------------------------------------ values

  private typeError(node: Node, path: JsonPath, message: string, data: Data, fixes?: Fix[]): Bad {
    this.report('error', Codes.schemaType, message, node, { ...data, path }, { fixes });
    return BAD;
  }

  /** A finite number; range violations → `checks.rangeCode` (CL005 by default). */
  private numberNode(node: Node, path: JsonPath, label: string, checks: NumberChecks, data: Data): number | Bad {
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

  private number(o: Obj, key: string, label: string, checks: NumberChecks, data: Data): number | undefined | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined || node === BAD) return node;
    return this.numberNode(node, [...o.path, key], label, checks, data);
  }

  private string(o: Obj, key: string, label: string, data: Data): { value: string; node: Node } | undefined | Bad {
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

  private boolean(o: Obj, key: string, label: string, data: Data): boolean | undefined | Bad {
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

  private enumeration<T extends string>(o: Obj, key: string, label: string, allowed: readonly T[], data: Data): T | undefined | Bad {
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
  private numbers(node: Node, path: JsonPath, label: string, n: number, shape: string, data: Data): number[] | Bad {
    if (node.type !== 'array') return this.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
    const items = node.children ?? [];
    if (items.length !== n) {
      return this.typeError(node, path, `${label} must be ${shape}: it has ${items.length} component${items.length === 1 ? '' : 's'} instead of ${n}.`, data);
    }
    const out: number[] = [];
    let bad = false;
    items.forEach((item, i) => {
      const v = this.numberNode(item, [...path, i], `Component ${i} of ${label}`, {}, data);
      if (v === BAD) bad = true;
      else out.push(v);
    });
    return bad ? BAD : out;
  }

  private vec3(o: Obj, key: string, label: string, def: Readonly<Vec3>, data: Data): Vec3 | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined) return [def[0], def[1], def[2]];
    if (node === BAD) return BAD;
    const v = this.numbers(node, [...o.path, key], label, 3, 'a 3-vector `[x, y, z]`', data);
    return v === BAD ? BAD : [v[0], v[1], v[2]];
  }

  /** A non-zero axis, normalised; zero → CL205. */
  private axis(o: Obj, key: string, label: string, def: Readonly<Vec3>, data: Data): Vec3 | Bad {
    const v = this.vec3(o, key, label, def, data);
    if (v === BAD) return BAD;
    const m = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
    if (!(m > ZERO_LENGTH)) {
      const node = this.valueOf(o, key) as Node;
      this.report('error', Codes.zeroAxis, `${label} has zero length, so it defines no direction. Give a non-zero vector such as [0, 0, 1].`, node, {
        ...data,
        path: [...o.path, key],
      });
      return BAD;
    }
    // Scale first so that huge components cannot overflow the norm.
    return normalize([v[0] / m, v[1] / m, v[2] / m]);
  }

  private mask(o: Obj, key: string, label: string, data: Data): [boolean, boolean, boolean] | Bad {
    const node = this.valueOf(o, key);
    if (node === undefined) return [false, false, false];
    if (node === BAD) return BAD;
    const path = [...o.path, key];
    const shape = 'three booleans `[x, y, z]`, e.g. [true, false, true]';
    if (node.type !== 'array') return this.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
    const items = node.children ?? [];
    if (items.length !== 3) return this.typeError(node, path, `${label} must be ${shape}: it has ${items.length} entries instead of 3.`, data);
    let bad = false;
    items.forEach((item, i) => {
      if (item.type !== 'boolean') {
        this.typeError(item, [...path, i], `Entry ${i} of ${label} must be \`true\` or \`false\`, not ${describe(item)}.`, data);
        bad = true;
      }
    });
    return bad ? BAD : [items[0].value === true, items[1].value === true, items[2].value === true];
  }

  // ------------------------------------------------------------------------------ scene

  private scene(root: Node): SceneSpec {
    const top = this.object(root, [], SCENE_FIELDS, {});
    this.string(top, '$schema', '`$schema`', {}); // allowed, checked for type, otherwise unused
    const name = this.string(top, 'name', 'The scene `name`', {});
    const gravity = this.vec3(top, 'gravity', '`gravity`', DEFAULT_GRAVITY, {});
    const solver = this.solver(top);

    // Bodies.
    const bodies: BodySpec[] = [];
    const declared = new Map<string, DeclaredBody>();
    const bodiesNode = this.valueOf(top, 'bodies');
    if (bodiesNode === undefined) {
      this.missing(top, 'bodies', 'The scene has no `bodies` array. Add `"bodies": [ { "name": "A", "mass": 1 } ]`.', {});
    } else if (bodiesNode !== BAD) {
      if (bodiesNode.type !== 'array') {
        this.typeError(bodiesNode, ['bodies'], `\`bodies\` must be an array of bodies, not ${describe(bodiesNode)}.`, {});
      } else {
        (bodiesNode.children ?? []).forEach((b, i) => {
          const spec = this.body(b, i, declared);
          if (spec) bodies.push(spec);
        });
      }
    }
    const byName = new Map(bodies.map((b) => [b.name, b]));

    // Constraints.
    const constraints: ConstraintSpec[] = [];
    const named: NamedConstraint[] = [];
    const consNode = this.valueOf(top, 'constraints');
    if (consNode !== undefined && consNode !== BAD) {
      if (consNode.type !== 'array') {
        this.typeError(consNode, ['constraints'], `\`constraints\` must be an array of constraints, not ${describe(consNode)}.`, {});
      } else {
        (consNode.children ?? []).forEach((c, i) => {
          const spec = this.constraint(c, i, byName, declared, named);
          if (spec) constraints.push(spec);
        });
      }
    }
    this.resolveCouplers(constraints);
    constraints.sort((a, b) => a.index - b.index);
    this.duplicateConstraintNames(named);

    return {
      name: name === undefined || name === BAD ? DEFAULT_SCENE_NAME : name.value,
      gravity: gravity === BAD ? [DEFAULT_GRAVITY[0], DEFAULT_GRAVITY[1], DEFAULT_GRAVITY[2]] : gravity,
      solver,
      bodies,
      constraints,
    };
  }

  private solver(top: Obj): SolverSettings {
    const s: SolverSettings = { ...DEFAULT_SOLVER };
    const node = this.valueOf(top, 'solver');
    if (node === undefined || node === BAD) return s;
    if (node.type !== 'object') {
      this.typeError(node, ['solver'], `\`solver\` must be an object such as \`{ "dt": 0.01, "steps": 100 }\`, not ${describe(node)}.`, {});
      return s;
    }
    const o = this.object(node, ['solver'], SOLVER_FIELDS, {});
    const num = (key: keyof SolverSettings, checks: NumberChecks): void => {
      const v = this.number(o, key, `\`solver.${key}\``, checks, {});
      if (typeof v === 'number') (s as unknown as Record<string, number>)[key] = v;
    };
    num('dt', { min: 0, exclusiveMin: true });
    num('steps', { min: 0, integer: true });
    num('alpha', { min: 0 });
    num('beta', { min: 0 });
    num('erp', { min: 0, max: 1 });
    num('compliance', { min: 0 });
    num('conditionWarning', { min: 0, exclusiveMin: true });
    num('violationTolerance', { min: 0 });
    num('driftTolerance', { min: 0 });
    const stab = this.enumeration(o, 'stabilization', '`solver.stabilization`', STABILIZATIONS, {});
    if (typeof stab === 'string') s.stabilization = stab;
    const form = this.enumeration(o, 'formulation', '`solver.formulation`', FORMULATIONS, {});
    if (typeof form === 'string') s.formulation = form;
    const method = this.enumeration(o, 'method', '`solver.method`', SOLVE_METHODS, {});
    if (typeof method === 'string') s.method = method;
    return s;
  }

  // ------------------------------------------------------------------------------ bodies

  private body(node: Node, i: number, declared: Map<string, DeclaredBody>): BodySpec | undefined {
    const path: JsonPath = ['bodies', i];
    if (node.type !== 'object') {
      this.typeError(node, path, `Each body must be an object such as \`{ "name": "A", "mass": 1 }\`, not ${describe(node)}.`, { bodyIndex: i });
      return undefined;
    }
    const errorsBefore = this.errorCount;
    const o = this.object(node, path, BODY_FIELDS, { bodyIndex: i });

    // Name.
    let name: string | undefined;
    let nameNode: Node | undefined;
    const n = this.string(o, 'name', 'A body `name`', { bodyIndex: i });
    if (n === undefined) {
      this.missing(o, 'name', `Body ${i} has no \`name\`. Add \`"name": "..."\`: constraints refer to bodies by name.`, { bodyIndex: i });
    } else if (n !== BAD) {
      nameNode = n.node;
      if (n.value.trim() === '') {
        this.report('error', Codes.invalidValue, 'A body name must not be empty.', n.node, { bodyIndex: i, path: [...path, 'name'] });
      } else if (n.value === WORLD) {
        this.report(
          'error',
          Codes.reservedBodyName,
          '`world` is the fixed world frame and cannot name a body. Rename the body (constraints can use "world" to attach to the world).',
          n.node,
          { bodyIndex: i, bodyName: n.value, path: [...path, 'name'] },
        );
      } else {
        name = n.value;
      }
    }
    const data: Data = name !== undefined ? { bodyIndex: i, bodyName: name } : { bodyIndex: i };
    const label = (f: string): string => `\`${f}\` of body ${name !== undefined ? quote(name) : i}`;

    // Duplicate names: the first definition keeps the name, later ones are dropped.
    let duplicate = false;
    if (name !== undefined && nameNode) {
      const prior = declared.get(name);
      if (prior) {
        duplicate = true;
        this.report(
          'error',
          Codes.duplicateBody,
          `Body name ${quote(name)} is already used by body ${prior.index}. Body names must be unique: rename one of them.`,
          nameNode,
          { ...data, path: [...path, 'name'], firstIndex: prior.index },
          { related: [this.related(`${quote(name)} first defined here`, prior.nameNode)] },
        );
      }
    }

    // Mass.
    let mass = this.number(o, 'mass', label('mass'), { min: 0, exclusiveMin: true, rangeCode: Codes.nonPositiveMass, expect: 'greater than 0 (use `"fixed": true` for an immovable body)' }, data);
    if (mass === undefined) {
      mass = this.missing(o, 'mass', `Body ${name !== undefined ? quote(name) : i} has no \`mass\`. Add \`"mass": <kg>\` (a number greater than 0).`, data);
    }

    const inertia = this.inertia(o, label('inertia'), data);
    const position = this.vec3(o, 'position', label('position'), [0, 0, 0], data);
    const orientation = this.orientation(o, label('orientation'), data);
    const velocity = this.vec3(o, 'velocity', label('velocity'), [0, 0, 0], data);
    const angularVelocity = this.vec3(o, 'angularVelocity', label('angularVelocity'), [0, 0, 0], data);
    const force = this.vec3(o, 'force', label('force'), [0, 0, 0], data);
    const torque = this.vec3(o, 'torque', label('torque'), [0, 0, 0], data);
    const gravity = this.boolean(o, 'gravity', label('gravity'), data);
    const fixed = this.boolean(o, 'fixed', label('fixed'), data);

    const valid = this.errorCount === errorsBefore && name !== undefined && !duplicate;
    if (name !== undefined && nameNode && !declared.has(name)) declared.set(name, { index: i, nameNode, valid });
    if (
      !valid ||
      name === undefined ||
      mass === BAD ||
      inertia === BAD ||
      position === BAD ||
      orientation === BAD ||
      velocity === BAD ||
      angularVelocity === BAD ||
      force === BAD ||
      torque === BAD ||
      gravity === BAD ||
      fixed === BAD
    ) {
      return undefined;
    }
    return {
      index: i,
      name,
      mass,
      inertia,
      position,
      orientation,
      velocity,
      angularVelocity,
      force,
      torque,
      gravity: gravity ?? true,
      fixed: fixed ?? false,
    };
  }

  /** Three positive diagonal values, or a symmetric positive-definite 3×3 (3 rows of 3). */
  private inertia(o: Obj, label: string, data: Data): Mat3 | Bad {
    const node = this.valueOf(o, 'inertia');
    const d = DEFAULT_INERTIA_DIAGONAL;
    if (node === undefined) return [d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]];
    if (node === BAD) return BAD;
    const path = [...o.path, 'inertia'];
    const shape = 'three diagonal values `[Ixx, Iyy, Izz]` or a 3×3 matrix `[[..], [..], [..]]`';
    if (node.type !== 'array') return this.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
    const items = node.children ?? [];
    const matrixForm = items.length > 0 && items[0].type === 'array';
    if (!matrixForm) {
      const v = this.numbers(node, path, label, 3, shape, data);
      if (v === BAD) return BAD;
      for (let k = 0; k < 3; k++) {
        if (!(v[k] > 0)) {
          this.report(
            'error',
            Codes.inertiaNotSpd,
            `${label}: the diagonal value ${fmt(v[k])} must be greater than 0 (a rigid body resists rotation about every axis).`,
            items[k],
            { ...data, path: [...path, k], value: v[k] },
          );
          return BAD;
        }
      }
      return [v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]];
    }
    if (items.length !== 3) return this.typeError(node, path, `${label} must be ${shape}: it has ${items.length} rows instead of 3.`, data);
    const m: number[] = [];
    let bad = false;
    items.forEach((row, r) => {
      const v = this.numbers(row, [...path, r], `row ${r} of ${label}`, 3, 'a row of 3 numbers', data);
      if (v === BAD) bad = true;
      else m.push(...v);
    });
    if (bad) return BAD;
    const M = m as Mat3;
    const scale = Math.max(...M.map(Math.abs));
    for (let r = 0; r < 3; r++) {
      for (let c = r + 1; c < 3; c++) {
        if (Math.abs(M[r * 3 + c] - M[c * 3 + r]) > INERTIA_SYMMETRY_TOLERANCE * scale) {
          this.report(
            'error',
            Codes.inertiaNotSpd,
            `${label} is not symmetric: entry [${r}][${c}] = ${fmt(M[r * 3 + c])} but [${c}][${r}] = ${fmt(M[c * 3 + r])}. Make them equal.`,
            node,
            { ...data, path, entry: [r, c] },
          );
          return BAD;
        }
      }
    }
    const S: Mat3 = [...M] as Mat3;
    for (let r = 0; r < 3; r++)
      for (let c = r + 1; c < 3; c++) {
        const avg = (M[r * 3 + c] + M[c * 3 + r]) / 2;
        S[r * 3 + c] = avg;
        S[c * 3 + r] = avg;
      }
    if (!choleskyOk(S)) {
      this.report(
        'error',
        Codes.inertiaNotSpd,
        `${label} is not positive definite (Cholesky fails): every principal moment must be greater than 0. Check the signs of the products of inertia.`,
        node,
        { ...data, path },
      );
      return BAD;
    }
    return S;
  }

  private orientation(o: Obj, label: string, data: Data, key = 'orientation'): Quat | Bad {
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

  // ------------------------------------------------------------------------------ constraints

  private constraint(node: Node, i: number, bodies: Map<string, BodySpec>, declared: Map<string, DeclaredBody>, named: NamedConstraint[]): ConstraintSpec | undefined {
    const path: JsonPath = ['constraints', i];
    if (node.type !== 'object') {
      this.typeError(node, path, `Each constraint must be an object such as \`{ "type": "ball", "bodyA": "A", "bodyB": "world" }\`, not ${describe(node)}.`, {
        constraintIndex: i,
      });
      return undefined;
    }
    const errorsBefore = this.errorCount;

    // The type decides which fields are known, so read it before the other fields.
    const typeProp = findLast(node, 'type');
    const typeNode = typeProp?.children?.[1];
    let type: ConstraintType | undefined;
    if (typeNode && typeNode.type === 'string' && (CONSTRAINT_TYPES as readonly string[]).includes(String(typeNode.value))) {
      type = typeNode.value as ConstraintType;
    }
    const o = type
      ? this.object(node, path, constraintFields(type), { constraintIndex: i }, {
          fields: CONSTRAINT_ALL_FIELDS,
          why: (f) => `${quote(f)} is not a field of a ${type} constraint (${type} takes ${describeTypeFields(type!)}).`,
        })
      : this.object(node, path, CONSTRAINT_ALL_FIELDS, { constraintIndex: i });

    const nameValue = this.string(o, 'name', 'A constraint `name`', { constraintIndex: i });
    const explicitName = nameValue !== undefined && nameValue !== BAD ? nameValue : undefined;
    const name = explicitName?.value ?? `${type ?? 'constraint'}${i}`;
    const data: Data = { constraintIndex: i, constraintName: name };
    const label = (f: string): string => `\`${f}\` of constraint ${quote(name)}`;

    if (!type) {
      if (typeNode === undefined && typeProp === undefined) {
        this.missing(o, 'type', `Constraint ${quote(name)} has no \`type\`. Add \`"type": "${CONSTRAINT_TYPES.join('" | "')}"\`.`, data);
      } else if (typeNode) {
        const t = this.enumeration(o, 'type', label('type'), CONSTRAINT_TYPES, data);
        if (t === BAD && typeNode.type === 'string') this.aliasFix(String(typeNode.value), typeNode);
      }
    }
    if (explicitName || (type && typeNode)) named.push({ name, node: explicitName?.node ?? typeNode!, index: i });
    if (type === 'coupler') {
      this.coupler(o, i, name, data, label);
      return undefined; // added by resolveCouplers once the joints it names are known
    }

    const ends: { key: 'bodyA' | 'bodyB'; value?: string; node?: Node }[] = [];
    for (const key of ['bodyA', 'bodyB'] as const) {
      const s = this.string(o, key, label(key), data);
      if (s === undefined) this.missing(o, key, `Constraint ${quote(name)} has no \`${key}\`. Add \`"${key}": "<body name or world>"\`.`, data);
      ends.push(s === undefined || s === BAD ? { key } : { key, value: s.value, node: s.node });
    }
    const anchorA = this.vec3(o, 'anchorA', label('anchorA'), [0, 0, 0], data);
    const anchorB = this.vec3(o, 'anchorB', label('anchorB'), [0, 0, 0], data);

    // Resolve the ends.
    let droppedBody = false;
    const resolved: (BodySpec | 'world' | undefined)[] = ends.map((e) => {
      if (e.value === undefined || !e.node) return undefined;
      if (e.value === WORLD) return 'world';
      const b = bodies.get(e.value);
      if (b) return b;
      const d = declared.get(e.value);
      if (d) {
        // The body exists but has errors (already reported): drop the constraint with a note.
        droppedBody = true;
        this.report(
          'information',
          Codes.unknownBody,
          `Constraint ${quote(name)} is ignored because body ${quote(e.value)} has errors. Fix the body first.`,
          e.node,
          { ...data, path: [...path, e.key], bodyName: e.value, reason: 'body-has-errors' },
          { related: [this.related(`Body ${quote(e.value)}`, d.nameNode)] },
        );
        return undefined;
      }
      const candidates = [...bodies.keys(), WORLD];
      const maxDistance = Math.max(2, Math.floor(e.value.length / 2));
      const fixes = closest(e.value, candidates, maxDistance, 3).map((c, k) => ({
        title: `Rename to ${quote(c)}`,
        edits: [replaceNodeEdit(this.index, e.node!, JSON.stringify(c))],
        preferred: k === 0,
      }));
      const known = bodies.size > 0 ? `Known bodies: ${[...bodies.keys()].slice(0, 10).join(', ')}${bodies.size > 10 ? ', …' : ''}, or world.` : 'Use "world" or add the body to `bodies`.';
      this.report('error', Codes.unknownBody, `Constraint ${quote(name)}: no body named ${JSON.stringify(e.value)}. ${known}`, e.node, {
        ...data,
        path: [...path, e.key],
        bodyName: e.value,
        end: e.key,
      }, { fixes });
      return undefined;
    });

    const [endA, endB] = ends;
    const [rA, rB] = resolved;
    if (endA.value !== undefined && endA.value === endB.value && endB.node && endA.node) {
      this.report(
        'error',
        Codes.sameBody,
        `Constraint ${quote(name)} connects ${quote(endA.value)} to itself, which constrains nothing. Change \`bodyB\` to another body or "world".`,
        endB.node,
        { ...data, path: [...path, 'bodyB'], bodyName: endA.value },
        { related: [this.related('bodyA', endA.node)] },
      );
    } else if (rA && rB && isFixed(rA) && isFixed(rB)) {
      const what = (r: BodySpec | 'world'): string => (r === 'world' ? 'the world' : `${quote(r.name)} (fixed: true)`);
      this.report(
        'error',
        Codes.bothFixed,
        `Both ends of constraint ${quote(name)} are fixed: ${what(rA)} and ${what(rB)}. Its rows would be empty; attach at least one end to a moving body.`,
        endB.node!,
        { ...data, path: [...path, 'bodyB'], bodyA: endA.value, bodyB: endB.value },
        { related: [this.related('bodyA', endA.node!)] },
      );
    }

    const spec: ConstraintSpec = {
      index: i,
      name,
      type: type ?? 'distance',
      bodyA: endA.value ?? '',
      bodyB: endB.value ?? '',
      anchorA: anchorA === BAD ? [0, 0, 0] : anchorA,
      anchorB: anchorB === BAD ? [0, 0, 0] : anchorB,
    };

    switch (type) {
      case 'distance': {
        const length = this.number(o, 'length', label('length'), { min: 0 }, data);
        if (typeof length === 'number') {
          if (length <= ZERO_LENGTH) {
            this.report('error', Codes.zeroLength, `Constraint ${quote(name)} has length 0: a distance constraint needs a positive length. Use a ball joint for coincident points.`, this.valueOf(o, 'length') as Node, {
              ...data,
              path: [...path, 'length'],
            }, { fixes: this.toBallFix(o, typeNode) });
          }
          spec.length = length;
        } else if (length === undefined && rA && rB && anchorA !== BAD && anchorB !== BAD) {
          const d = norm(sub(worldPoint(rB, anchorB), worldPoint(rA, anchorA)));
          if (!Number.isFinite(d)) {
            this.report('error', Codes.invalidValue, `The anchors of constraint ${quote(name)} are too far apart for a default length. Give \`length\` explicitly.`, typeNode!, {
              ...data,
              path: [...path, 'type'],
            });
          } else if (!(d > ZERO_LENGTH)) {
            this.report(
              'error',
              Codes.zeroLength,
              `The anchors of constraint ${quote(name)} coincide initially, so its default length is 0. Give a positive \`length\`, move an anchor, or use a ball joint.`,
              typeNode!,
              { ...data, path: [...path, 'type'], defaultLength: d },
              { fixes: this.toBallFix(o, typeNode) },
            );
          }
          spec.length = d;
        }
        break;
      }
      case 'fixed': {
        if (o.props.has('relativeOrientation')) {
          const q = this.orientation(o, label('relativeOrientation'), data, 'relativeOrientation');
          if (q !== BAD) spec.relativeOrientation = q;
        }
        break;
      }
      case 'hinge':
      case 'universal': {
        const a = this.axis(o, 'axisA', label('axisA'), DEFAULT_HINGE_AXIS, data);
        const b = this.axis(o, 'axisB', label('axisB'), DEFAULT_HINGE_AXIS, data);
        if (a !== BAD) spec.axisA = a;
        if (b !== BAD) spec.axisB = b;
        break;
      }
      case 'slider': {
        const a = this.axis(o, 'axisA', label('axisA'), DEFAULT_SLIDER_AXIS, data);
        if (a !== BAD) spec.axisA = a;
        break;
      }
      case 'lock': {
        const linear = this.mask(o, 'linear', label('linear'), data);
        const angular = this.mask(o, 'angular', label('angular'), data);
        if (linear !== BAD && angular !== BAD) {
          spec.linear = linear;
          spec.angular = angular;
          if (!linear.includes(true) && !angular.includes(true)) {
            const key = o.props.has('linear') ? 'linear' : o.props.has('angular') ? 'angular' : 'type';
            const at = key === 'type' ? typeNode! : (this.valueOf(o, key) as Node);
            this.report(
              'warning',
              Codes.emptyLock,
              `Lock constraint ${quote(name)} locks no axis, so it has no rows. Set some entries of \`linear\` or \`angular\` to true.`,
              at,
              { ...data, path: [...path, key] },
            );
          }
        }
        break;
      }
      default:
        break;
    }

    if (this.errorCount !== errorsBefore || droppedBody || !type || !rA || !rB) return undefined;
    return spec;
  }

  /** Read a coupler's `joints`, `coefficients` and `initial`; the joints are resolved by `resolveCouplers`. */
  private coupler(o: Obj, i: number, name: string, data: Data, label: (f: string) => string): void {
    const path: JsonPath = ['constraints', i];
    const errorsBefore = this.errorCount;
    const list = (key: string, shape: string, min: number, max: number): Node[] | undefined => {
      const node = this.valueOf(o, key);
      if (node === undefined || node === BAD) return undefined;
      const n = node.children?.length ?? 0;
      if (node.type !== 'array') this.typeError(node, [...path, key], `${label(key)} must be ${shape}, not ${describe(node)}.`, data);
      else if (n < min || n > max) this.typeError(node, [...path, key], `${label(key)} must be ${shape}: it has ${n} entries.`, data);
      else return node.children ?? [];
      return undefined;
    };
    const joints: { value: string; node: Node }[] = [];
    if (!o.props.has('joints')) this.missing(o, 'joints', `Coupler ${quote(name)} has no \`joints\`. Add \`"joints": ["<driven hinge or slider>", "<driving hinge or slider>"]\`.`, data);
    for (const [k, item] of (list('joints', 'one or two names of hinge or slider constraints', 1, 2) ?? []).entries()) {
      if (item.type === 'string') joints.push({ value: String(item.value), node: item });
      else this.typeError(item, [...path, 'joints', k], `Entry ${k} of ${label('joints')} must be a constraint name in double quotes, not ${describe(item)}.`, data);
    }
    const numbers = (key: string, nodes: Node[] | undefined): number[] | undefined => {
      if (!nodes) return undefined;
      const out = nodes.map((n, k) => this.numberNode(n, [...path, key, k], `Entry ${k} of ${label(key)}`, {}, data));
      return out.includes(BAD) ? undefined : (out as number[]);
    };
    const coefficients = numbers('coefficients', list('coefficients', `1 to ${MAX_COUPLER_COEFFICIENTS} polynomial coefficients [c0, c1, …]`, 1, MAX_COUPLER_COEFFICIENTS));
    const initial = numbers('initial', list('initial', 'one initial coordinate per joint', 1, 2));
    const initNode = this.valueOf(o, 'initial');
    if (initial && initNode && initNode !== BAD && joints.length && initial.length !== joints.length) {
      this.typeError(initNode, [...path, 'initial'], `${label('initial')} must have one entry per joint (${joints.length}), not ${initial.length}.`, data);
    }
    if (this.errorCount !== errorsBefore || joints.length === 0) return;
    this.couplers.push({
      index: i,
      name,
      joints,
      coefficients: coefficients ?? (joints.length === 2 ? [0, 1] : [0]),
      initial: initial ?? joints.map(() => 0),
      data,
    });
  }

  /** Resolve each coupler's joint names to hinge or slider constraints and add the valid couplers. */
  private resolveCouplers(constraints: ConstraintSpec[]): void {
    const byName = new Map(constraints.filter((c) => c.type === 'hinge' || c.type === 'slider').map((c) => [c.name, c]));
    for (const p of this.couplers) {
      const coupled: CoupledJoint[] = [];
      for (const [k, j] of p.joints.entries()) {
        const c = byName.get(j.value);
        if (!c) {
          const other = constraints.find((x) => x.name === j.value);
          const why = other ? `${quote(j.value)} is a ${other.type} constraint; a coupler couples hinge or slider coordinates.` : `there is no valid hinge or slider constraint named ${JSON.stringify(j.value)}.`;
          const fixes = other ? [] : closest(j.value, [...byName.keys()], Math.max(2, Math.floor(j.value.length / 2)), 3).map((n, r) => ({
            title: `Rename to ${quote(n)}`,
            edits: [replaceNodeEdit(this.index, j.node, JSON.stringify(n))],
            preferred: r === 0,
          }));
          this.report('error', Codes.couplerJoint, `Coupler ${quote(p.name)}: ${why}`, j.node, { ...p.data, path: ['constraints', p.index, 'joints', k], joint: j.value }, { fixes });
          continue;
        }
        coupled.push({ joint: c.name, kind: c.type as 'hinge' | 'slider', body: c.bodyB, parent: c.bodyA, axis: c.axisA ?? [0, 0, 1], initial: p.initial[k] ?? 0 });
      }
      if (coupled.length !== p.joints.length) continue;
      if (coupled.length === 2 && coupled[0].joint === coupled[1].joint) {
        this.report('error', Codes.couplerJoint, `Coupler ${quote(p.name)} couples ${quote(coupled[0].joint)} with itself.`, p.joints[1].node, { ...p.data, path: ['constraints', p.index, 'joints', 1] });
        continue;
      }
      constraints.push({
        index: p.index,
        name: p.name,
        type: 'coupler',
        bodyA: coupled[0].body,
        bodyB: coupled[0].parent,
        anchorA: [0, 0, 0],
        anchorB: [0, 0, 0],
        coupling: { joints: coupled as [CoupledJoint] | [CoupledJoint, CoupledJoint], coefficients: p.coefficients },
      });
    }
  }

  private toBallFix(o: Obj, typeNode: Node | undefined): Fix[] {
    if (!typeNode) return [];
    const edits = [replaceNodeEdit(this.index, typeNode, '"ball"')];
    const lengthProp = o.props.get('length');
    if (lengthProp) {
      const removal = removePropertyEdit(this.index, lengthProp);
      if (!removal) return [];
      edits.push(removal);
    }
    return [{ title: 'Change to a ball joint', edits }];
  }

  /** An unknown constraint type that is a known alias: add a fix to the last diagnostic. */
  private aliasFix(value: string, node: Node): void {
    const target = TYPE_ALIASES[value.toLowerCase()];
    const d = this.diagnostics[this.diagnostics.length - 1];
    if (!target || !d || d.code !== Codes.invalidValue) return;
    const fix: Fix = { title: `Change to ${quote(target)}`, edits: [replaceNodeEdit(this.index, node, JSON.stringify(target))], preferred: true };
    const others = (d.fixes ?? []).filter((f) => f.title !== fix.title).map((f) => ({ ...f, preferred: false }));
    d.fixes = [fix, ...others];
    d.message += ` (${JSON.stringify(value)} is called ${JSON.stringify(target)} here.)`;
  }

  private duplicateConstraintNames(named: NamedConstraint[]): void {
    const first = new Map<string, NamedConstraint>();
    for (const c of named) {
      const prior = first.get(c.name);
      if (!prior) {
        first.set(c.name, c);
        continue;
      }
      this.report(
        'warning',
        Codes.duplicateConstraintName,
        `Constraint name ${quote(c.name)} is already used by constraint ${prior.index}; charts and diagnostics would be ambiguous. Give it a unique \`name\`.`,
        c.node,
        { constraintIndex: c.index, constraintName: c.name, firstIndex: prior.index, path: ['constraints', c.index, c.node.parent?.children?.[0]?.value ?? 'name'] },
        { related: [this.related(`${quote(c.name)} first used here`, prior.node)] },
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

function findLast(obj: Node, key: string): Node | undefined {
  const children = obj.children ?? [];
  for (let k = children.length - 1; k >= 0; k--) {
    const p = children[k];
    if (p.type === 'property' && p.children?.[0]?.value === key) return p;
  }
  return undefined;
}

function describeTypeFields(type: ConstraintType): string {
  const extra = CONSTRAINT_TYPE_FIELDS[type];
  return extra.length === 0 ? 'no extra fields' : extra.map(quote).join(' and ');
}

const isFixed = (r: BodySpec | 'world'): boolean => r === 'world' || r.fixed;

/** x = p + R(q)·anchor; for the world, the anchor itself. */
function worldPoint(r: BodySpec | 'world', anchor: Vec3): Vec3 {
  if (r === 'world') return anchor;
  return add(r.position, mat3MulVec(quatToMat3(r.orientation), anchor));
}

/** True when the symmetric matrix is (numerically) positive definite. */
function choleskyOk(m: Mat3): boolean {
  const L = new Array<number>(9).fill(0);
  const maxDiag = Math.max(Math.abs(m[0]), Math.abs(m[4]), Math.abs(m[8]));
  if (!(maxDiag > 0) || !Number.isFinite(maxDiag)) return false;
  for (let j = 0; j < 3; j++) {
    let d = m[j * 3 + j];
    for (let k = 0; k < j; k++) d -= L[j * 3 + k] * L[j * 3 + k];
    if (!(d > 1e-12 * maxDiag)) return false;
    L[j * 3 + j] = Math.sqrt(d);
    for (let r = j + 1; r < 3; r++) {
      let s = m[r * 3 + j];
      for (let k = 0; k < j; k++) s -= L[r * 3 + k] * L[j * 3 + k];
      L[r * 3 + j] = s / L[j * 3 + j];
    }
  }
  return true;
}
