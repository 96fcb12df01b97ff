// Types shared by the importer's stages (convert.ts, equality.ts, sourcemap.ts, index.ts).
import type { BodySpec, ConstraintSpec, ChainJointSpec, GroupHingeSpec, JointDriveSpec, SceneSpec, Severity, ShapeSpec } from '../engine';
import type { Frame } from './geometry';
import type { CompiledModel, MujocoState } from './mujoco';
import type { ElementMap } from './map';
import type { XmlElement } from './xml';

/** A converted body: the engine's BodySpec, its contact shapes in `shapes` (the scene format's ShapeSpec). */
export type ImportedBody = BodySpec;

/** The converted scene: a SceneSpec; planes and the shapes of static geoms are `world.shapes`. */
export type ImportedScene = SceneSpec;

/** A diagnostic before it has a range: the element it belongs to. */
export interface Issue {
  severity: Severity;
  code: string;
  message: string;
  element?: XmlElement;
  /** The attribute of `element` the issue is about: the range is its value (in the model file). */
  attr?: string;
  related?: { message: string; element?: XmlElement }[];
  data?: Record<string, unknown>;
}

/** A joint coordinate that a coupler can use: a single hinge or slide joint converted to one constraint. */
interface JointConstraint {
  constraint: string;
  kind: 'hinge' | 'slider';
  body: string;
  parent: string;
  /** Unit axis in the parent's frame. */
  axis: [number, number, number];
}

/** Everything the conversion stages share. */
export interface ConvertContext {
  m: CompiledModel;
  st: MujocoState;
  map: ElementMap;
  /** Scene body index per MuJoCo body (−1: the world). */
  sceneOf: number[];
  /** Our frame of the scene body each MuJoCo body belongs to (world: identity). */
  frames: Frame[];
  /** MuJoCo's own body frames at the initial state (xpos, xquat). */
  mjFrames: Frame[];
  scene: ImportedScene;
  constraintElements: (XmlElement | undefined)[];
  issues: Issue[];
  /** Per MuJoCo joint, the constraint it became when it is a lone hinge or slide. */
  jointConstraint: (JointConstraint | undefined)[];
  /** Per MuJoCo joint combined with others into one constraint: that constraint's type (universal, ball, chain). */
  combinedInto?: Map<number, string>;
  /**
   * Per MuJoCo hinge of a universal's or ball's group, and per joint of a chain with coordinates: the
   * constraint's name and the joint's entry in its `hinges` or `chain`.
   */
  groupHinge?: Map<number, { constraint: string; hinge: GroupHingeSpec | (ChainJointSpec & { name: string; drive: JointDriveSpec }) }>;
  /** Per MuJoCo equality: index of its constraint in scene.constraints. */
  equalityConstraint: (number | undefined)[];
  /** Per MuJoCo tendon, its name in the scene's `tendons` when converted (tendons.ts). */
  tendonScene?: (string | undefined)[];
  /** MuJoCo equalities of type tendon that are active: tendons.ts converts them. */
  tendonEqualities?: number[];
  /** Things the engine does not simulate, by category, with an element to point at. */
  notSimulated: Map<string, { items: string[]; element?: XmlElement }>;
  usedNames: Set<string>;
  /** The shape each geom became (convertGeoms), for the rules decided after all geoms are placed. */
  geomShapes?: (ShapeSpec | undefined)[];
}

export const WORLD = 'world';

/** The scene name of a scene body index. */
export const bodyName = (ctx: ConvertContext, sceneIndex: number): string => (sceneIndex < 0 ? WORLD : ctx.scene.bodies[sceneIndex].name);

/** True when the scene body (or the world) does not move. */
export const isFixed = (ctx: ConvertContext, sceneIndex: number): boolean => sceneIndex < 0 || ctx.scene.bodies[sceneIndex].fixed;

/** A constraint name not used yet (MuJoCo names are unique per kind, but joints and equalities share our namespace). */
export function uniqueName(ctx: ConvertContext, wanted: string): string {
  let name = wanted;
  for (let k = 2; ctx.usedNames.has(name); k++) name = `${wanted}#${k}`;
  ctx.usedNames.add(name);
  return name;
}

/** Add a constraint with the element it came from. */
export function addConstraint(ctx: ConvertContext, spec: Omit<ConstraintSpec, 'index'>, element: XmlElement | undefined): number {
  const index = ctx.scene.constraints.length;
  ctx.scene.constraints.push({ ...spec, index });
  ctx.constraintElements.push(element);
  return index;
}

/** Note something the engine does not simulate (listed once, by category). */
export function notSimulated(ctx: ConvertContext, category: string, item: string, element?: XmlElement): void {
  const entry = ctx.notSimulated.get(category) ?? { items: [], element };
  entry.items.push(item);
  entry.element ??= element;
  ctx.notSimulated.set(category, entry);
}
