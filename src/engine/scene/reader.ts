// What the field groups parsed in their own files (shapes.ts, contactSettings.ts) need from the
// scene parser: its value readers, which report diagnostics with exact ranges and return a
// symbol (the parser's "bad value" marker) after reporting an error. parse.ts provides it.
import type { Node } from 'jsonc-parser';
import type { Code } from '../diagnostics';
import type { Fix, Quat, Range, RelatedInformation, Severity, Vec3 } from '../types';
import type { LineIndex } from './text';
import type { JsonPath } from './types';

export type Data = Record<string, unknown>;

/** An object's fields, duplicate keys resolved (the last one wins). */
export interface FieldObject {
  node: Node;
  path: JsonPath;
  /** Property node per key. */
  props: Map<string, Node>;
}

export interface NumberChecks {
  min?: number;
  exclusiveMin?: boolean;
  max?: number;
  integer?: boolean;
  /** The code for a value outside the range (default CL005). */
  rangeCode?: Code;
  /** What is allowed, for the message. */
  expect?: string;
}

/** Fields known in another context (another shape type), with the reason shown. */
export interface Elsewhere {
  fields: readonly string[];
  why: (f: string) => string;
}

export interface FieldReader {
  readonly index: LineIndex;
  /** "a number", "an object", … */
  describe(node: Node): string;
  report(severity: Severity, code: Code, message: string, at: Node | Range, data?: Data, extra?: { related?: RelatedInformation[]; fixes?: Fix[] }): void;
  related(message: string, node: Node): RelatedInformation;
  /** Collect an object's properties; duplicate (CL006) and unknown (CL003) keys are reported. */
  object(node: Node, path: JsonPath, known: readonly string[], data: Data, elsewhere?: Elsewhere): FieldObject;
  /** The value node of a field; undefined when absent, a symbol when the property has no value. */
  valueOf(o: FieldObject, key: string): Node | undefined | symbol;
  missing(o: FieldObject, key: string, message: string, data: Data): symbol;
  typeError(node: Node, path: JsonPath, message: string, data: Data, fixes?: Fix[]): symbol;
  number(o: FieldObject, key: string, label: string, checks: NumberChecks, data: Data): number | undefined | symbol;
  numberNode(node: Node, path: JsonPath, label: string, checks: NumberChecks, data: Data): number | symbol;
  string(o: FieldObject, key: string, label: string, data: Data): { value: string; node: Node } | undefined | symbol;
  boolean(o: FieldObject, key: string, label: string, data: Data): boolean | undefined | symbol;
  enumeration<T extends string>(o: FieldObject, key: string, label: string, allowed: readonly T[], data: Data): T | undefined | symbol;
  vec3(o: FieldObject, key: string, label: string, def: Readonly<Vec3>, data: Data): Vec3 | symbol;
  /** The `orientation` field: a quaternion, normalised (CL105 when it was not of unit length). */
  orientation(o: FieldObject, label: string, data: Data): Quat | symbol;
}

export const quote = (s: string): string => '`' + s + '`';
