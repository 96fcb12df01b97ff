// MuJoCo's per-step efc arrays read straight from the WebAssembly heap. The bindings make a new typed
// array for every read of an MjData array (a call into C++ and back), which costs about as much as a
// small model's mj_step; the efc arrays move with every step's arena, so such a view cannot be kept.
// What does not move is mjData itself: its fields hold the arrays' addresses. Those fields are found
// once, by looking near mjData's time field for the addresses the bindings' own views report, and
// each step then reads the addresses from them, indexing one Int32Array and one Float64Array over
// the whole heap. The fields are checked against the bindings' views on the first
// reads and now and then after; any doubt (no unique match, a mismatch, a misaligned address) turns
// the fast path off for the run and the bindings' views are read as before.
import type { MjDataLike } from './mujocoSystem';

/** The arrays a step record reads, in the order of `EfcAt`'s fields. */
const FIELDS = ['efc_type', 'efc_id', 'efc_force', 'efc_pos', 'efc_margin'] as const;

/** Where a step's efc arrays start: indices into `i32` (type, id) and `f64` (force, pos, margin). */
export interface EfcAt {
  i32: Int32Array;
  f64: Float64Array;
  type: number;
  id: number;
  force: number;
  pos: number;
  margin: number;
}

/** mjData's efc pointers lie within this many bytes of its time field. */
const SPAN = 16384;
/** mjData's counts lie within this many bytes before its time field (a few dozen ints and flags between). */
const COUNTS_SPAN = 512;
/** The fast path is checked against the bindings on this many reads after it is found, then every CHECK_EVERY reads. */
const FIRST_CHECKS = 8;
const CHECK_EVERY = 512;

type View = ArrayBufferView & ArrayLike<number>;

export class EfcHeap {
  /** Byte address of each field of FIELDS inside mjData; undefined until found. */
  private fields: number[] | undefined;
  /**
   * Byte addresses of mjData's `ncon` (followed by ne, nf, nl and nefc: adjacent ints in every MuJoCo
   * 3 release) and of its `time`; undefined until found, or when the counts could not be told apart.
   */
  private counts: { ncon: number; time: number } | undefined;
  private scalarReads = 0;
  /** What `scalars()` read: the step's nefc, ncon and time. */
  nefc = 0;
  ncon = 0;
  time = 0;
  private u32 = new Uint32Array(0);
  private at: EfcAt = { i32: new Int32Array(0), f64: new Float64Array(0), type: 0, id: 0, force: 0, pos: 0, margin: 0 };
  private reads = 0;
  private tries = 0;
  /** The fast path is off for this run (it could not be found, or once disagreed with the bindings). */
  off = false;

  constructor(private readonly d: MjDataLike) {}

  /**
   * The current step's efc arrays (nefc > 0), or undefined when they must be read through the
   * bindings. Valid until the next mj_step (the indices) or the heap grows (the arrays).
   */
  read(): EfcAt | undefined {
    if (this.off) return undefined;
    if (!this.fields && !this.find()) return undefined;
    const fields = this.fields;
    if (!fields) return undefined;
    if (this.u32.length === 0) this.heap(this.view('qpos').buffer as ArrayBuffer);
    const u32 = this.u32, at = this.at;
    // read every step of a run: no array made per read
    const p0 = u32[fields[0] >> 2], p1 = u32[fields[1] >> 2], p2 = u32[fields[2] >> 2], p3 = u32[fields[3] >> 2], p4 = u32[fields[4] >> 2];
    if (p0 % 4 || p1 % 4 || p2 % 8 || p3 % 8 || p4 % 8) return this.disable();
    this.reads++;
    if (this.reads <= FIRST_CHECKS || this.reads % CHECK_EVERY === 0) {
      const p = [p0, p1, p2, p3, p4];
      for (let i = 0; i < FIELDS.length; i++) {
        const v = this.view(FIELDS[i]);
        if (v.byteOffset !== p[i] || v.buffer !== u32.buffer) return this.disable();
      }
    }
    at.type = p0 >> 2;
    at.id = p1 >> 2;
    at.force = p2 >> 3;
    at.pos = p3 >> 3;
    at.margin = p4 >> 3;
    return at;
  }

  /**
   * Read mjData's nefc, ncon and time into this object's fields, straight from mjData (each through the
   * bindings is a call into C++ and back, a tenth of a small model's mj_step for the three). False when
   * they must be read through the bindings: before the efc fields are found (the first step with
   * rows), or when the counts' place is in doubt. Checked against the bindings like the efc fields.
   */
  scalars(): boolean {
    const c = this.counts;
    if (this.off || !c) return false;
    if (this.u32.length === 0) this.heap(this.view('qpos').buffer as ArrayBuffer);
    const i32 = this.at.i32;
    this.ncon = i32[c.ncon >> 2];
    this.nefc = i32[(c.ncon >> 2) + 4];
    this.time = this.at.f64[c.time >> 3];
    this.scalarReads++;
    if (this.scalarReads <= FIRST_CHECKS || this.scalarReads % CHECK_EVERY === 0) {
      const d = this.d as unknown as { nefc: number; ncon: number; time: number };
      if (this.ncon !== Number(d.ncon) || this.nefc !== Number(d.nefc) || this.time !== Number(d.time)) return this.disable() ?? false;
    }
    return true;
  }

  private view(name: string): View {
    return (this.d as unknown as Record<string, View>)[name];
  }

  private heap(buffer: ArrayBuffer): void {
    this.u32 = new Uint32Array(buffer);
    this.at.i32 = new Int32Array(buffer);
    this.at.f64 = new Float64Array(buffer);
  }

  private disable(): undefined {
    this.off = true;
    return undefined;
  }

  /**
   * Find mjData's fields (with nefc > 0: every array then has its own address). mjData is located by
   * its time field: set for a moment to a mark no other mjData holds (a freed mjData of an earlier
   * run may still hold the same array addresses, never this time). A few tries, then off.
   */
  private find(): boolean {
    const d = this.d as unknown as { nefc: number; time: number };
    if (Number(d.nefc) <= 0) return false;
    if (++this.tries > 4) return this.disable() ?? false;
    const ptrs = FIELDS.map((n) => this.view(n).byteOffset);
    if (new Set(ptrs).size !== ptrs.length) return false;
    this.heap(this.view('qpos').buffer as ArrayBuffer);
    const f64 = this.at.f64, u32 = this.u32;
    const time = d.time;
    const mark = -1.25e-300 * (1 + this.tries);
    let at = -1;
    d.time = mark;
    try {
      // outward from qpos, nearest first: mjData lies next to its own arena, and scanning the whole
      // heap (hundreds of MB) for every run cost more than a short run's steps. The first match is
      // taken: the mark is in no other mjData (a freed one's time was restored), and the pointers
      // below and the checks against the bindings reject anything else
      const q = this.view('qpos').byteOffset >> 3;
      for (let r = 0; at < 0 && (q - r >= 0 || q + r < f64.length); r++) {
        if (q - r >= 0 && f64[q - r] === mark) at = (q - r) * 8;
        else if (q + r < f64.length && f64[q + r] === mark) at = (q + r) * 8;
      }
    } finally {
      d.time = time;
    }
    if (at < 0) return this.disable() ?? false;
    const fields: number[] = [];
    for (let i = 1; i < ptrs.length; i++) {
      let found = -1;
      for (let a = Math.max(0, at - SPAN); a < Math.min(u32.length * 4, at + SPAN); a += 4) {
        if (u32[a >> 2] !== ptrs[i]) continue;
        if (found >= 0) return this.disable() ?? false;
        found = a;
      }
      if (found < 0) return this.disable() ?? false;
      fields[i] = found;
    }
    // efc_type's address is also that of any empty array allocated just before it (the contacts of a
    // step without any), so it is not unique; in mjData it is the field just before efc_id
    fields[0] = fields[1] - 4;
    if (u32[fields[0] >> 2] !== ptrs[0]) return this.disable() ?? false;
    this.fields = fields;
    this.counts = this.findCounts(at);
    return true;
  }

  /**
   * mjData's `ncon, ne, nf, nl, nefc` lie, in that order, shortly before its `time` (the info header):
   * found by their current values, and taken only where those five ints occur once.
   */
  private findCounts(time: number): { ncon: number; time: number } | undefined {
    const d = this.d as unknown as Record<'ncon' | 'ne' | 'nf' | 'nl' | 'nefc', number>;
    const want = [Number(d.ncon), Number(d.ne), Number(d.nf), Number(d.nl), Number(d.nefc)];
    if (!want.every((v) => Number.isInteger(v))) return undefined;
    const i32 = this.at.i32;
    let found = -1;
    for (let a = Math.max(0, time - COUNTS_SPAN); a + 20 <= time; a += 4) {
      const w = a >> 2;
      if (i32[w] !== want[0] || i32[w + 1] !== want[1] || i32[w + 2] !== want[2] || i32[w + 3] !== want[3] || i32[w + 4] !== want[4]) continue;
      if (found >= 0) return undefined;
      found = a;
    }
    return found >= 0 ? { ncon: found, time } : undefined;
  }
}
