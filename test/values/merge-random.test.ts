/**
 * Random carry lists against the real pack values. The merge checks its own result (the text must
 * read back as the new defaults with the carry applied), so any layout it mishandles throws here.
 */
import { isMap, isSeq, type Document, type Node } from 'yaml';
import { describe, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { CarryItem } from '../../src/values/carry.js';
import { mergeValues } from '../../src/values/merge.js';
import { formatPath, type PathSegment } from '../../src/values/path.js';
import { keyName, parseValues } from '../../src/values/values-document.js';
import { realValues } from './helpers.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

function randomCarry(rand: () => number, paths: Array<{ segs: PathSegment[] }>): CarryItem {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const at = pick(paths).segs;
  const roll = rand();
  if (roll < 0.15) return { path: formatPath(at), remove: true };
  if (roll < 0.35) return { path: formatPath([...at, { kind: 'key', key: `added${Math.floor(rand() * 3)}` }]), value: pick(values) };
  if (roll < 0.45) return { path: formatPath([...at.slice(0, -1), { kind: 'key', key: 'new.key/with dots' }, { kind: 'key', key: 'deep' }]), value: pick(values) };
  return { path: formatPath(at), value: pick(values) };
}

describe.each([
  ['virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml', 50],
  ['virtual-machine-orchestrator.kubevirt-v1.2.0.values.yaml', 50],
  ['metallb-0.14.9.values.yaml', 40],
])('random carries into %s', (file, rounds) => {
  const text = realValues(file);
  const paths = allPaths(parseValues(text).docs[0] as Document);

  it(`writes ${rounds} random carry lists exactly (the merge's check passes)`, () => {
    for (let seed = 1; seed <= rounds; seed++) {
      const rand = random(seed);
      const carry = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => randomCarry(rand, paths));
      try {
        mergeValues({ newDefaults: text, carry });
      } catch (err) {
        // Writing `[3]` into a list that ends before it is refused as bad input; anything else is a merge bug.
        if (err instanceof InputError && err.code === 'values.carry-index') continue;
        throw new Error(`seed ${seed}: ${JSON.stringify(carry)}: ${(err as Error).message}`);
      }
    }
  });
});
