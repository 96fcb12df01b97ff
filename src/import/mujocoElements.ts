// The run elements of a MuJoCo run: every equality, limit and friction loss that had efc rows at some
// step, and the contacts as one, each numbered once in the order first met. A step record keeps ‖λ‖ and
// the violation per element, so every efc row of every step is mapped to its element.
import type { CompiledModel } from './mujoco';
import { EFC } from './mujocoSystem';

/** An element that had constraint rows at some step (equality, limit, friction loss, contact pair). */
export interface MujocoElement {
  name: string;
  type: string;
}

export class MujocoElements {
  readonly list: MujocoElement[] = [];
  private readonly byKey = new Map<number, number>();
  /** Per efc row of the last step mapped: its (type, id), and its element (−1: not yet known). */
  private rowKey = new Int32Array(0);
  private rowElement = new Int32Array(0);

  constructor(private readonly cm: CompiledModel) {}

  /**
   * The element of efc row r with MuJoCo's (efc_type, efc_id): as on the step before when the row's
   * (type, id) is the same (a step's rows nearly always are), one comparison instead of a map lookup.
   */
  ofRow(r: number, type: number, id: number): number {
    if (2 * r + 1 >= this.rowKey.length) this.grow(r + 1);
    const e = this.rowElement[r];
    if (e >= 0 && this.rowKey[2 * r] === type && this.rowKey[2 * r + 1] === id) return e;
    this.rowKey[2 * r] = type;
    this.rowKey[2 * r + 1] = id;
    return (this.rowElement[r] = this.of(type, id));
  }

  /** The element of an efc row by (type, id), named once (contacts: all of a step's contacts are one element). */
  private of(type: number, id: number): number {
    const contact = type >= EFC.frictionless;
    const key = contact ? -1 : type * 1_000_000 + id;
    let e = this.byKey.get(key);
    if (e === undefined) {
      e = this.list.length;
      this.list.push(contact ? { name: 'contacts', type: 'contact' } : elementName(this.cm, type, id));
      this.byKey.set(key, e);
    }
    return e;
  }

  private grow(rows: number): void {
    const n = Math.max(2 * rows, 16);
    const key = new Int32Array(2 * n).fill(-1), el = new Int32Array(n).fill(-1);
    key.set(this.rowKey);
    el.set(this.rowElement);
    this.rowKey = key;
    this.rowElement = el;
  }
}

/** An equality, limit or friction-loss element by MuJoCo's (efc_type, efc_id), named as the system's rows are. */
function elementName(cm: CompiledModel, type: number, id: number): MujocoElement {
  if (type === EFC.equality) return { name: cm.equalities[id]?.name || `${cm.equalities[id]?.type ?? 'equality'}${id}`, type: 'equality' };
  if (type === EFC.limitJoint) return { name: cm.joints[id]?.name || `joint${id}`, type: 'limit' };
  if (type === EFC.frictionDof) {
    let j = -1;
    for (let i = cm.joints.length - 1; i >= 0 && j < 0; i--) if (cm.joints[i].dofadr <= id) j = i;
    return { name: cm.joints[j]?.name || `joint${j}`, type: 'frictionloss' };
  }
  return { name: cm.tendons[id]?.name || `tendon${id}`, type: type === EFC.limitTendon ? 'limit' : 'frictionloss' };
}
