/**
 * Random carry lists against the real pack values. Each merge is checked here, apart from the
 * merge's own check: the text must read back as the new defaults with the carry applied, and each
 * carried setting that no other one touches must be found at its path (or be gone, if removed).
 * The rounds that wrote are counted: a merge that refused everything would pass nothing.
 */
import { isMap, isSeq, type Document, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { CarryItem } from '../../src/values/carry.js';
import { mergeValuesDocument } from '../../src/values/merge.js';
import { formatPath, type PathSegment } from '../../src/values/path.js';
import { keyName, parseValues } from '../../src/values/values-document.js';
import { seeded, withSeed } from '../support/seed.js';
import { realValues } from './helpers.js';

const FILE = 'test/values/merge-random.test.ts';

/** Every path in the document (maps by key, lists by position), parents before children. */
function allPaths(doc: Document): Array<{ segs: PathSegment[]; node: Node }> {
  const out: Array<{ segs: PathSegment[]; node: Node }> = [];
  const walk = (node: Node, segs: PathSegment[]) => {
    out.push({ segs, node });
    if (isMap(node)) for (const p of node.items) walk(p.value as Node, [...segs, { kind: 'key', key: keyName(p.key, doc) }]);
    else if (isSeq(node)) node.items.forEach((item, index) => walk(item as Node, [...segs, { kind: 'index', index }]));
  };
  walk(doc.contents as Node, []);
  return out.slice(1);
}

const values: unknown[] = [
  'text',
  'on',
  '0755',
  42,
  4.5,
  true,
  null,
  '',
  '{{ .spectro.system.cluster.uid }}',
  '${site-variable}',
  'two\nlines\n',
  'key: value # not a comment',
  [],
  {},
  ['a', 'b'],
  { k: 'v', nested: { list: [1, { x: 'y' }] } },
  [{ name: 'item', v: 1 }],
];

interface Drawn {
  item: CarryItem;
  segs: PathSegment[];
}

function randomCarry(rand: () => number, paths: Array<{ segs: PathSegment[] }>): Drawn {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const at = pick(paths).segs;
  const roll = rand();
  const set = (segs: PathSegment[]): Drawn => ({ item: { path: formatPath(segs), value: pick(values) }, segs });
  if (roll < 0.15) return { item: { path: formatPath(at), remove: true }, segs: at };
  if (roll < 0.35) return set([...at, { kind: 'key', key: `added${Math.floor(rand() * 3)}` }]);
  if (roll < 0.45) return set([...at.slice(0, -1), { kind: 'key', key: 'new.key/with dots' }, { kind: 'key', key: 'deep' }]);
  return set(at);
}

const sameSeg = (a: PathSegment, b: PathSegment) => JSON.stringify(a) === JSON.stringify(b);
/**
 * One path is the other or lies under it; or they part where one names a key and the other a list
 * position: writing one turns that container into a map, the other into a list, and the later wins.
 */
const related = (a: PathSegment[], b: PathSegment[]) => {
  const n = Math.min(a.length, b.length);
  const parting = a.slice(0, n).findIndex((s, i) => !sameSeg(s, b[i]!));
  return parting < 0 || (a[parting]!.kind === 'key') !== (b[parting]!.kind === 'key');
};

/** The value at a path of plain values (maps by key, lists by position). */
function valueAt(root: unknown, segs: PathSegment[]): { found: boolean; value?: unknown } {
  let cur = root;
  for (const s of segs) {
    if (s.kind === 'key' && cur !== null && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, s.key)) cur = (cur as Record<string, unknown>)[s.key];
    else if (s.kind === 'index' && Array.isArray(cur) && s.index < cur.length) cur = cur[s.index];
    else return { found: false };
  }
  return { found: true, value: cur };
}

/**
 * The carry applied to plain values by the merge's contract, written here apart from the product's
 * own applier (which the merge already checks itself against): a removal of what is not there does
 * nothing; a set makes the maps it needs (a key under a scalar or a list replaces it with a map),
 * replaces an item at a position, appends at the position after the last, and is refused beyond it
 * (those rounds are skipped before this runs); removals of list items come last, the highest
 * position first, so none shifts an item another names.
 */
function referenceApply(doc: unknown, drawn: readonly Drawn[]): unknown {
  const copy = (v: unknown): unknown => structuredClone(v);
  const isMapValue = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const gone = Symbol('remove');
  const put = (cur: unknown, segs: readonly PathSegment[], value: unknown): unknown => {
    if (segs.length === 0) return value;
    const [seg, ...rest] = segs as [PathSegment, ...PathSegment[]];
    if (seg.kind === 'key') {
      if (value === gone && !(isMapValue(cur) && Object.hasOwn(cur, seg.key))) return cur;
      const map: Record<string, unknown> = isMapValue(cur) ? { ...cur } : {};
      if (rest.length === 0 && value === gone) delete map[seg.key];
      else map[seg.key] = put(map[seg.key], rest, value);
      return map;
    }
    if (seg.kind !== 'index') throw new Error(`the test draws keys and positions only, not ${seg.kind}`);
    const list = Array.isArray(cur) ? [...(cur as unknown[])] : [];
    if (seg.index < list.length) {
      if (rest.length === 0 && value === gone) list.splice(seg.index, 1);
      else list[seg.index] = put(list[seg.index], rest, value);
      return list;
    }
    if (value === gone) return cur;
    list.push(put(undefined, rest, value));
    return list;
  };
  const isIndexRemoval = (d: Drawn) => d.item.remove === true && d.segs.at(-1)?.kind === 'index';
  const descending = (a: Drawn, b: Drawn): number => {
    for (let i = 0; i < Math.min(a.segs.length, b.segs.length); i++) {
      const x = a.segs[i]!;
      const y = b.segs[i]!;
      const c = x.kind === 'index' && y.kind === 'index' ? y.index - x.index : JSON.stringify(y).localeCompare(JSON.stringify(x));
      if (c !== 0) return c;
    }
    return b.segs.length - a.segs.length;
  };
  const ordered = [...drawn.filter((d) => !isIndexRemoval(d)), ...drawn.filter(isIndexRemoval).sort(descending)];
  return ordered.reduce((cur, d) => put(cur, d.segs, d.item.remove ? gone : copy(d.item.value)), copy(doc));
}

describe.each([
  ['virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml', 50],
  ['virtual-machine-orchestrator.kubevirt-v1.2.0.values.yaml', 50],
  ['metallb-0.14.9.values.yaml', 40],
])('random carries into %s', (file, rounds) => {
  const text = realValues(file);
  const paths = allPaths(parseValues(text).docs[0] as Document);
  const defaults = parseValues(text).docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);

  it(`writes ${rounds} random carry lists exactly`, () =>
    withSeed(FILE, (seed) => {
      let written = 0;
      let spotChecked = 0;
      for (let round = 0; round < rounds; round++) {
        const rand = seeded(seed + round);
        const drawn = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => randomCarry(rand, paths));
        const carry = drawn.map((d) => d.item);
        const where = `round ${round}: ${JSON.stringify(carry)}`;
        let merged: ReturnType<typeof mergeValuesDocument>;
        try {
          // The merge parses what it wrote anyway; this takes that reading rather than parsing it twice.
          merged = mergeValuesDocument({ newDefaults: text, carry });
        } catch (err) {
          // Writing `[3]` into a list that ends before it is refused as bad input; anything else is a merge bug.
          if (err instanceof InputError && err.code === 'values.carry-index') continue;
          throw new Error(`${where}: ${(err as Error).message}`);
        }
        written++;
        const actual = merged.docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
        expect(actual, `${where}: the merged values are not the defaults with the carry applied`).toEqual([referenceApply(defaults[0], drawn), ...defaults.slice(1)]);
        // Each setting no other one touches (keys only: positions shift under removals) is where it was put.
        for (const [i, d] of drawn.entries()) {
          if (d.segs.some((s) => s.kind !== 'key') || drawn.some((o, j) => j !== i && related(o.segs, d.segs))) continue;
          const found = valueAt(actual[0], d.segs);
          if (d.item.remove) expect(found.found, `${where}: ${d.item.path} is still there`).toBe(false);
          else expect(found, `${where}: ${d.item.path}`).toEqual({ found: true, value: d.item.value });
          spotChecked++;
        }
      }
      // Refusals are the exception: nearly every round wrote, and settings were found where they were put.
      expect(written).toBeGreaterThanOrEqual(Math.ceil(rounds * 0.8));
      expect(spotChecked).toBeGreaterThanOrEqual(written);
    }),
    // CPU-bound (a merge of real values per round): a busy machine takes its time.
    120_000,
  );
});
