/**
 * Where each value of a draft comes from. A value that is neither the site's (what it runs before
 * the hop) nor the new version's default is an addition: something the tool would write that nobody
 * set. Additions must be decisions of their own (a rule's fix, a value an operator typed), so the
 * customization step lists every one the draft holds, and leaves out any nobody chose. Pure.
 *
 * Compared as Helm reads values (parsed, types matter, key order does not). A list item is the
 * site's or the default's when either list holds an equal item (so a merge of both sides' feature
 * gates adds nothing); a map item of a list is matched by its key field (`name`, ...) and compared
 * inside; a whole subtree that neither side has is one addition, named at its top.
 */
import { deepEqual } from '../io/deep-equal.js';
import { formatPath, parseConcretePath, sameSegment, type PathSegment } from './path.js';
import { toValuesDocument, valuesToJs, type ValuesInput } from './values-document.js';

export interface Addition {
  /** Where, in the path syntax of `path.ts`. */
  path: string;
  value: unknown;
}

interface Found extends Addition {
  /** The same place with every list item named by its position (a decision may name it either way). */
  positions: PathSegment[];
  segments: PathSegment[];
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function docsOf(input: ValuesInput, what: string): unknown[] {
  return valuesToJs(toValuesDocument(input, what));
}

/** The key field that identifies `item` among the list's items (the first of `listKeys` it has as a scalar). */
function keyField(item: unknown, listKeys: readonly string[]): { field: string; value: string | number | boolean } | undefined {
  if (!isMap(item)) return undefined;
  for (const field of listKeys) {
    const v = item[field];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { field, value: v };
  }
  return undefined;
}

class Walker {
  readonly out: Found[] = [];
  constructor(
    private readonly doc: number,
    private readonly listKeys: readonly string[],
  ) {}

  private add(at: PathSegment[], positions: PathSegment[], value: unknown): void {
    this.out.push({ path: formatPath({ doc: this.doc, segments: at }), value, segments: at, positions });
  }

  visit(draft: unknown, sources: unknown[], at: PathSegment[], positions: PathSegment[] = at): void {
    const present = sources.filter((s) => s !== undefined);
    if (present.some((s) => deepEqual(s, draft))) return;
    if (present.length === 0) return this.add(at, positions, draft);
    if (isMap(draft)) {
      for (const [k, v] of Object.entries(draft)) {
        const seg: PathSegment = { kind: 'key', key: k };
        this.visit(v, present.map((s) => (isMap(s) && Object.hasOwn(s, k) ? s[k] : undefined)), [...at, seg], [...positions, seg]);
      }
      return;
    }
    if (Array.isArray(draft)) {
      const lists = present.filter(Array.isArray) as unknown[][];
      draft.forEach((item, i) => {
        if (lists.some((l) => l.some((x) => deepEqual(x, item)))) return;
        const keyed = keyField(item, this.listKeys);
        const position: PathSegment = { kind: 'index', index: i };
        if (keyed) {
          const same = lists.flatMap((l) => l.filter((x) => isMap(x) && x[keyed.field] === keyed.value));
          this.visit(item, same, [...at, { kind: 'item', field: keyed.field, value: keyed.value }], [...positions, position]);
          return;
        }
        this.visit(item, lists.map((l) => l[i]), [...at, position], [...positions, position]);
      });
      return;
    }
    // A scalar (or a collection where the sources hold a scalar) that neither side has.
    this.add(at, positions, draft);
  }
}

/**
 * Values in `draft` that none of `sources` holds at the same place. `decided`: paths whose values
 * were chosen (a fix, a typed value): nothing at or under them counts as an addition.
 */
export function findAdditions(draft: ValuesInput, sources: readonly ValuesInput[], opts: { listKeys?: readonly string[]; decided?: readonly string[] } = {}): Addition[] {
  const listKeys = opts.listKeys ?? ['name', 'id', 'key', 'image'];
  const draftDocs = docsOf(draft, 'the draft values');
  const sourceDocs = sources.map((s, i) => docsOf(s, `the values compared with the draft (${i + 1})`));
  const out: Array<Found & { doc: number }> = [];
  draftDocs.forEach((d, i) => {
    const w = new Walker(i, listKeys);
    // An empty document is an empty map: its keys show one by one.
    w.visit(d ?? {}, sourceDocs.map((s) => (i < s.length ? (s[i] ?? {}) : {})), []);
    out.push(...w.out.map((f) => ({ ...f, doc: i })));
  });
  const decided = (opts.decided ?? []).map((p) => parseConcretePath(p));
  const under = (d: { segments: PathSegment[] }, segs: PathSegment[]) => d.segments.length <= segs.length && d.segments.every((s, i) => sameSegment(s, segs[i]!));
  return out
    .filter((a) => !decided.some((d) => (d.doc ?? 0) === a.doc && (under(d, a.segments) || under(d, a.positions))))
    .map((a) => ({ path: a.path, value: a.value }));
}
