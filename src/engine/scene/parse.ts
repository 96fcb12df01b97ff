// Scene format v1: JSONC text → validated SceneSpec + diagnostics with exact ranges and quick fixes.
// `parseScene` never throws. See docs/scene-format.md for the format and the diagnostic table.
// This file walks the document; each section has its own file: solver.ts, bodies.ts (with shapes.ts),
// constraints.ts (with couplers.ts), the world's shapes and the contact settings (shapes.ts, contactSettings.ts), all
// reading fields through the value readers of reader.ts.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { type Code, Codes } from '../core/codes';
import type { Diagnostic } from '../types';
import { readBody, type DeclaredBody } from './bodies';
import { readConstraint, reportDuplicateConstraintNames, type NamedConstraint } from './constraints';
import { resolveCouplers, type PendingCoupler } from './couplers';
import { readContactSettings } from './contactSettings';
import { reportUnsolvedJointRows } from './jointLimits';
import { readActuators } from './drives';
import { readTendons } from './tendons';
import { DEFAULT_GRAVITY, DEFAULT_SCENE_NAME, SCENE_FIELDS } from './fields';
import { readFluid } from './fluid';
import { BAD, describe, FieldReader } from './reader';
import { readWorldRules } from './shapeRules';
import { readWorld } from './shapes';
import { readSolver } from './solver';
import { LineIndex, createSourceMap, findProperty } from './text';
import { type Limits, resolveLimits } from '../core/inputLimits';
import { PRESCAN_CHARS, stepsLimitDiagnostic, streamCountDiagnostics, textLimitDiagnostic, treeCountDiagnostics } from './limits';
import type { BodySpec, ConstraintSpec, ParseResult, SceneSpec } from './spec';

/** Marks the CL900 diagnostic of an unexpected internal failure (a bug): `data.internalError === true`. */
const INTERNAL_ERROR_KEY = 'internalError';

/** Parse and validate a scene file (JSON with comments). Never throws; bounded by `limits` (src/engine/core/inputLimits.ts). */
export function parseScene(text: string, limits?: Partial<Limits>): ParseResult {
  const src = typeof text === 'string' ? text : '';
  const lim = resolveLimits(limits);
  try {
    const over = refused(src, lim);
    if (over) return over;
    return readDocument(src, lim);
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

/** A text over the length limit, or (counted by streaming) with too many bodies or constraints: not parsed. */
function refused(text: string, lim: Limits): ParseResult | undefined {
  const tooLong = textLimitDiagnostic(text, lim);
  const diagnostics = tooLong ? [tooLong] : text.length > PRESCAN_CHARS ? streamCountDiagnostics(text, lim) : [];
  if (diagnostics.length === 0) return undefined;
  // the source map covers the first line only: nothing else of the text is looked at
  const nl = text.search(/[\r\n]/);
  const head = text.slice(0, Math.min(nl < 0 ? text.length : nl, 10_000));
  return { scene: undefined, diagnostics, sourceMap: createSourceMap(undefined, new LineIndex(head)), hasErrors: true };
}

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

/** The syntax, then the scene object: the top-level fields, the solver, the bodies and the constraints. */
function readDocument(text: string, lim: Limits): ParseResult {
  const r = new FieldReader(new LineIndex(text));
  const errors: ParseError[] = [];
  // A byte order mark is not JSON; parse a same-length text with a space in its place.
  const parsed = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  try {
    r.root = parseTree(parsed, errors, { allowTrailingComma: true, disallowComments: false });
  } catch {
    // jsonc-parser recurses: absurdly deep nesting overflows the stack.
    r.root = undefined;
    r.report('error', Codes.jsonSyntax, 'The file could not be read: arrays or objects are nested too deeply.', r.index.range(0, 0));
  }
  for (const e of errors) {
    const name = printParseErrorCode(e.error);
    const message = PARSE_ERROR_MESSAGES[name] ?? `Syntax error (${name}).`;
    r.report('error', Codes.jsonSyntax, message, r.index.range(e.offset, e.length), { parseError: name });
  }
  const sourceMap = createSourceMap(r.root, r.index);
  let scene: SceneSpec | undefined;
  const tooMany = treeCountDiagnostics(r.root, lim, (n) => r.index.nodeRange(n));
  for (const d of tooMany) r.report(d.severity, d.code as Code, d.message, d.range, d.data);
  if (tooMany.length > 0) {
    // refused: the bodies and constraints past the limit are never read
  } else if (r.root && r.root.type === 'object') {
    scene = readScene(r, r.root, lim);
  } else if (r.root) {
    r.report(
      'error',
      Codes.schemaType,
      `A scene must be a JSON object \`{ "bodies": [...], ... }\`, not ${describe(r.root)}.`,
      r.index.nodeRange(r.root),
      { path: [] },
    );
  } else if (r.errorCount === 0) {
    r.report('error', Codes.schemaType, 'The file is empty: a scene is a JSON object `{ "bodies": [...] }`.', r.index.range(0, 0), { path: [] });
  }
  const diagnostics = r.sorted();
  return { scene, diagnostics, sourceMap, hasErrors: diagnostics.some((d) => d.severity === 'error') };
}

/** The scene object's fields, each section read by its own file. */
function readScene(r: FieldReader, root: Node, lim: Limits): SceneSpec {
  const top = r.object(root, [], SCENE_FIELDS, {});
  r.string(top, '$schema', '`$schema`', {}); // allowed, checked for type, otherwise unused
  const name = r.string(top, 'name', 'The scene `name`', {});
  const gravity = r.vec3(top, 'gravity', '`gravity`', DEFAULT_GRAVITY, {});
  const fluid = readFluid(r, top);
  const solver = readSolver(r, top);
  const solverNode = r.valueOf(top, 'solver');
  const stepsNode = solverNode && solverNode !== BAD && solverNode.type === 'object' ? findProperty(solverNode, 'steps')?.children?.[1] : undefined;
  const tooLong = stepsLimitDiagnostic(solver.steps, lim, stepsNode ? r.index.nodeRange(stepsNode) : r.index.range(0, 1));
  if (tooLong) {
    r.report(tooLong.severity, tooLong.code as Code, tooLong.message, tooLong.range, { ...tooLong.data, path: ['solver', 'steps'] });
    solver.steps = lim.steps;
  }

  // Bodies.
  const bodies: BodySpec[] = [];
  const declared = new Map<string, DeclaredBody>();
  const bodiesNode = r.valueOf(top, 'bodies');
  if (bodiesNode === undefined) {
    r.missing(top, 'bodies', 'The scene has no `bodies` array. Add `"bodies": [ { "name": "A", "mass": 1 } ]`.', {});
  } else if (bodiesNode !== BAD) {
    if (bodiesNode.type !== 'array') {
      r.typeError(bodiesNode, ['bodies'], `\`bodies\` must be an array of bodies, not ${describe(bodiesNode)}.`, {});
    } else {
      (bodiesNode.children ?? []).forEach((b, i) => {
        const spec = readBody(r, b, i, declared);
        if (spec) bodies.push(spec);
      });
    }
  }
  const byName = new Map(bodies.map((b) => [b.name, b]));

  // Constraints.
  const constraints: ConstraintSpec[] = [];
  const named: NamedConstraint[] = [];
  const couplers: PendingCoupler[] = [];
  const consNode = r.valueOf(top, 'constraints');
  if (consNode !== undefined && consNode !== BAD) {
    if (consNode.type !== 'array') {
      r.typeError(consNode, ['constraints'], `\`constraints\` must be an array of constraints, not ${describe(consNode)}.`, {});
    } else {
      (consNode.children ?? []).forEach((c, i) => {
        const spec = readConstraint(r, c, i, byName, declared, named, couplers);
        if (spec) constraints.push(spec);
      });
    }
  }
  resolveCouplers(r, couplers, constraints);
  reportDuplicateConstraintNames(r, named);
  const world = readWorld(r, top);
  const worldNode = r.valueOf(top, 'world');
  readWorldRules(r, worldNode === undefined || typeof worldNode === 'symbol' ? undefined : worldNode, bodies, world);
  readContactSettings(r, top, solver, bodies, world);
  reportUnsolvedJointRows(r, top.node, solver, constraints);
  const tendons = readTendons(r, top, constraints, bodies, solver);
  const actuators = readActuators(r, top, constraints, tendons ?? []);

  return {
    name: name === undefined || name === BAD ? DEFAULT_SCENE_NAME : name.value,
    gravity: gravity === BAD ? [DEFAULT_GRAVITY[0], DEFAULT_GRAVITY[1], DEFAULT_GRAVITY[2]] : gravity,
    solver,
    bodies,
    constraints,
    world,
    ...(actuators ? { actuators } : {}),
    ...(tendons ? { tendons } : {}),
    ...(fluid ? { fluid } : {}),
  };
}
