// The body states packed for checkpoints and records (Simulation, simulation.ts), and the small
// copies a step record makes of the stepping path's scratch buffers.
import type { BodyState } from '../model/body';

const STATE_SIZE = 13; // p(3) q(4) v(3) w(3)

export function pack(states: BodyState[], out: Float64Array = new Float64Array(states.length * STATE_SIZE)): Float64Array {
  writeStates(states, out);
  return out;
}

/** `pack` into any array of at least 13 numbers per body. */
function writeStates(states: BodyState[], out: { [i: number]: number }): void {
  for (let i = 0, o = 0; i < states.length; i++, o += STATE_SIZE) {
    const { p, q, v, w } = states[i];
    out[o] = p[0];
    out[o + 1] = p[1];
    out[o + 2] = p[2];
    out[o + 3] = q[0];
    out[o + 4] = q[1];
    out[o + 5] = q[2];
    out[o + 6] = q[3];
    out[o + 7] = v[0];
    out[o + 8] = v[1];
    out[o + 9] = v[2];
    out[o + 10] = w[0];
    out[o + 11] = w[1];
    out[o + 12] = w[2];
  }
}

/**
 * A template for a record's arrays of n numbers: `template.slice()` makes a fresh packed
 * array of doubles, cheaper than `new Array(n)` (a holey array) filled one by one. Never written: every
 * copy is a new array that only its record holds, so records share nothing.
 */
export function arrayTemplate(n: number): readonly number[] {
  const t: number[] = [];
  for (let i = 0; i < n; i++) t.push(0.5);
  return t;
}

/** A fresh array of n numbers: a copy of `template` when it has that length, else `new Array(n)`. */
function freshArray(n: number, template?: readonly number[]): number[] {
  return template !== undefined && template.length === n ? template.slice() : new Array<number>(n);
}

/** A fresh array with x's values (a record's arrays; x is a scratch buffer); `template`: `arrayTemplate(x.length)`. */
export function toArray(x: Float64Array, template?: readonly number[]): number[] {
  const out = freshArray(x.length, template);
  for (let i = 0; i < x.length; i++) out[i] = x[i];
  return out;
}

/** The poses p (3) and q (4) of every body, in body order (a step record's `poses`); `template`: `arrayTemplate(7·bodies)`. */
export function posesOf(states: BodyState[], template?: readonly number[]): number[] {
  const out = freshArray(states.length * 7, template);
  for (let i = 0, o = 0; i < states.length; i++, o += 7) {
    const { p, q } = states[i];
    out[o] = p[0];
    out[o + 1] = p[1];
    out[o + 2] = p[2];
    out[o + 3] = q[0];
    out[o + 4] = q[1];
    out[o + 5] = q[2];
    out[o + 6] = q[3];
  }
  return out;
}

export function maxAbs(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}
export function unpack(buf: ArrayLike<number>): BodyState[] {
  const out: BodyState[] = [];
  for (let i = 0; i < buf.length / STATE_SIZE; i++) {
    const o = i * STATE_SIZE;
    out.push({
      p: [buf[o], buf[o + 1], buf[o + 2]],
      q: [buf[o + 3], buf[o + 4], buf[o + 5], buf[o + 6]],
      v: [buf[o + 7], buf[o + 8], buf[o + 9]],
      w: [buf[o + 10], buf[o + 11], buf[o + 12]],
    });
  }
  return out;
}

/** Checkpoints are packed into blocks of this many states (one allocation per block, not per step). */
const CHECKPOINT_BLOCK = 64;
/**
 * Up to this many numbers a checkpoint is a plain array of doubles, a copy of a template (at a
 * few bodies, with a checkpoint every step, a typed view into a block costs about twice the copy).
 */
const SMALL_CHECKPOINT = 1024;

/**
 * Packs checkpoints: small ones into fresh copies of a template (`arrayTemplate`), larger ones into
 * views of blocks of CHECKPOINT_BLOCK states. Each is written once and never again (a copy is its
 * own array; the next view takes the next slice, a full block is left to the views into it, and
 * `reset` starts a new block), so a kept checkpoint never changes.
 */
export class CheckpointPacker {
  private block: Float64Array | undefined;
  private used = 0;
  private template: readonly number[] | undefined;

  pack(states: BodyState[]): ArrayLike<number> {
    const size = states.length * STATE_SIZE;
    if (size <= SMALL_CHECKPOINT) {
      if (this.template?.length !== size) this.template = arrayTemplate(size);
      const out = this.template.slice();
      writeStates(states, out);
      return out;
    }
    if (!this.block || this.used + size > this.block.length) {
      this.block = new Float64Array(Math.max(1, size * CHECKPOINT_BLOCK));
      this.used = 0;
    }
    const view = this.block.subarray(this.used, this.used + size);
    this.used += size;
    return pack(states, view);
  }

  reset(): void {
    this.block = undefined;
  }
}
