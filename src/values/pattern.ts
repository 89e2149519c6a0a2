/**
 * Matching paths against patterns (`**.image`, `charts.*.tag`) while walking a document: the state
 * is carried down one segment at a time, so a walk over thousands of keys tests every ignore
 * pattern in constant time per key instead of re-matching whole paths.
 */
import { parsePath, sameSegment, type PathSegment, type ValuesPath } from './path.js';

/** Positions reached in each pattern, encoded as `pattern * stride + position`. */
export type MatchState = readonly number[];

const EMPTY: MatchState = [];

export class PatternSet {
  private readonly patterns: readonly ValuesPath[];
  private readonly stride: number;

  constructor(patterns: readonly (string | ValuesPath)[]) {
    this.patterns = patterns.map((p) => (typeof p === 'string' ? parsePath(p) : p));
    this.stride = Math.max(1, ...this.patterns.map((p) => p.segments.length + 1));
  }

  get size(): number {
    return this.patterns.length;
  }

  /** The state at the root of document `doc`: patterns without `@N` apply to every document. */
  start(doc: number): MatchState {
    const out: number[] = [];
    this.patterns.forEach((p, i) => {
      if (p.doc === undefined || p.doc === doc) this.close(i, 0, out);
    });
    return out;
  }

  step(state: MatchState, seg: PathSegment): MatchState {
    if (state.length === 0) return EMPTY;
    const out: number[] = [];
    for (const code of state) {
      const i = Math.floor(code / this.stride);
      const pos = code % this.stride;
      const segs = (this.patterns[i] as ValuesPath).segments;
      const want = segs[pos];
      if (want === undefined) continue;
      if (want.kind === 'deep') this.close(i, pos, out);
      else if (want.kind === 'any' || sameSegment(want, seg)) this.close(i, pos + 1, out);
    }
    return out.length === 0 ? EMPTY : out;
  }

  /** True when some pattern matches the path walked so far exactly. */
  accepts(state: MatchState): boolean {
    for (const code of state) {
      const i = Math.floor(code / this.stride);
      if (code % this.stride === (this.patterns[i] as ValuesPath).segments.length) return true;
    }
    return false;
  }

  /** Adds `pos` and, through any run of `**`, the positions after it (`**` may match nothing). */
  private close(i: number, pos: number, out: number[]): void {
    const segs = (this.patterns[i] as ValuesPath).segments;
    let p = pos;
    for (;;) {
      const code = i * this.stride + p;
      if (!out.includes(code)) out.push(code);
      if (segs[p]?.kind !== 'deep') return;
      p += 1;
    }
  }
}

/** True when `pattern` matches the concrete `path` exactly. */
export function matchesPattern(pattern: string | ValuesPath, path: ValuesPath): boolean {
  const set = new PatternSet([pattern]);
  let state = set.start(path.doc ?? 0);
  for (const seg of path.segments) state = set.step(state, seg);
  return set.accepts(state);
}

/** True when `pattern` matches `path` or one of its ancestors (ignoring a key ignores what is under it). */
export function coversPath(patterns: PatternSet, path: ValuesPath): boolean {
  let state = patterns.start(path.doc ?? 0);
  if (patterns.accepts(state)) return true;
  for (const seg of path.segments) {
    state = patterns.step(state, seg);
    if (state.length === 0) return false;
    if (patterns.accepts(state)) return true;
  }
  return false;
}
