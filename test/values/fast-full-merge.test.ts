/**
 * The fast path and the full-document path agree: random edits to real pack values (every pack the
 * lab's registry serves, version after version, and the shared VMO documents), diffed and merged
 * once with the documents read by the YAML scanner and once with the yaml package's full documents
 * (`parseValues(…, { full: true })`, the merge's check then converting both whole documents): the
 * same diff, the same merged text byte for byte, or the same error. Seeds are fixed (`UP_SEED`
 * replays another), so a run covers the same few hundred cases every time.
 */
import { describe, expect, it } from 'vitest';
import { PilotError } from '../../src/errors.js';
import { decide, type Decision } from '../../src/values/decide.js';
import { diffValues, type ValuesDiff } from '../../src/values/diff.js';
import { mergeValues, mergeValuesDocument } from '../../src/values/merge.js';
import { formatPath, type PathSegment } from '../../src/values/path.js';
import { parseValues, valuesToJs, type ValuesDocument } from '../../src/values/values-document.js';
import { seeded, withSeed } from '../support/seed.js';
import { realPackTexts } from './helpers.js';

const FILE = 'test/values/fast-full-merge.test.ts';
const SEED = Number(process.env.UP_SEED || 36_036);

const pathsOf = new Map<string, PathSegment[][]>();

/** Every key and list position of the first document, parents first. */
function allPaths(text: string): PathSegment[][] {
  const known = pathsOf.get(text);
  if (known) return known;
  const out: PathSegment[][] = [];
  const walk = (v: unknown, segs: PathSegment[]) => {
    out.push(segs);
    if (Array.isArray(v)) v.forEach((x, index) => walk(x, [...segs, { kind: 'index', index }]));
    else if (v !== null && typeof v === 'object') for (const [key, x] of Object.entries(v)) walk(x, [...segs, { kind: 'key', key }]);
  };
  walk(valuesToJs(parseValues(text))[0], []);
  pathsOf.set(text, out.slice(1));
  return out.slice(1);
}

const pool: unknown[] = ['site', 'on', '0755', 7, 2.5, false, null, '', '{{ .spectro.system.cluster.name }}', '${site-var}', 'two\nlines\n', 'a: b # c', ['SMM', 'x'], [], {}, { a: { b: 1 } }, [{ name: 'site-item', v: 1 }]];

/** A version of `text` as a site (or a release) would leave it: settings changed, added, removed; comment lines added. */
function edit(text: string, rand: () => number): string {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const paths = allPaths(text);
  const carry = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => {
    const at = pick(paths);
    const roll = rand();
    if (roll < 0.2) return { path: formatPath(at), remove: true as const };
    if (roll < 0.4) return { path: formatPath([...at, { kind: 'key', key: `site${Math.floor(rand() * 3)}` }]), value: pick(pool) };
    return { path: formatPath(at), value: pick(pool) };
  });
  let out: string;
  try {
    out = mergeValues({ newDefaults: text, carry });
  } catch {
    return text;
  }
  // A comment line, indented as the line after it (the package and the scanner both read past it).
  const lines = out.split('\n');
  for (let n = Math.floor(rand() * 3); n > 0; n--) {
    const at = Math.floor(rand() * lines.length);
    const indent = /^ */.exec(lines[at] ?? '')![0];
    lines.splice(at, 0, `${indent}# a site's note ${n}`);
  }
  return lines.join('\n');
}

interface Outcome {
  diff?: ValuesDiff;
  text?: string;
  error?: string;
}

/** Each path's reading of the texts that recur (the versions' own documents): read once per path. */
const readings = { fast: new Map<string, ValuesDocument>(), full: new Map<string, ValuesDocument>() };

function run(full: boolean, texts: { deployed: string; oldDefaults: string | undefined; newDefaults: string }, settings: object, choose: (diff: ValuesDiff) => Record<string, Decision>): Outcome {
  const read = (text: string, what: string) => {
    const known = readings[full ? 'full' : 'fast'];
    const doc = known.get(text) ?? parseValues(text, what, { full });
    known.set(text, doc);
    return doc;
  };
  try {
    const deployed = read(texts.deployed, 'the deployed values');
    const oldDefaults = texts.oldDefaults === undefined ? undefined : read(texts.oldDefaults, 'the old defaults');
    const newDefaults = read(texts.newDefaults, 'the new defaults');
    const diff = diffValues({ deployed, oldDefaults, newDefaults, settings });
    const carry = decide(diff, choose(diff));
    return { diff, text: mergeValuesDocument({ newDefaults, carry, deployed }).text };
  } catch (err) {
    if (err instanceof PilotError) return { error: `${err.code}: ${err.message}` };
    throw err;
  }
}

/** Consecutive versions of each pack the lab's registry serves, and the real VMO v1.2.0 → v1.4.0 documents. */
function versionPairs(maxLength: number): Array<{ name: string; from: string; to: string }> {
  const texts = realPackTexts();
  const pairs: Array<{ name: string; from: string; to: string }> = [];
  const vmo = (v: string) => texts.find((t) => t.name === `virtual-machine-orchestrator.kubevirt-${v}.values.yaml`)!.text;
  pairs.push({ name: 'VMO kubevirt v1.2.0 → v1.4.0 (shared fixtures)', from: vmo('v1.2.0'), to: vmo('v1.4.0') });
  const lab = texts.filter((t) => t.name.endsWith('(lab)'));
  lab.forEach((t, i) => {
    const next = lab[i + 1];
    if (next && next.name.split(' ')[0] === t.name.split(' ')[0]) pairs.push({ name: `${t.name} → ${next.name}`, from: t.text, to: next.text });
  });
  return pairs.filter((p) => p.from.length <= maxLength && p.to.length <= maxLength);
}

describe('the scanner path and the full-document path', () => {
  it.each([
    ['packs up to 30 kB', 30_000, 200],
    ['the larger packs (Rook-Ceph, Cilium)', Infinity, 12],
  ])('give the same diff and the same merged text for random edits of real pack values: %s', (_, maxLength, rounds) =>
    withSeed(
      FILE,
      (seed) => {
        const pairs = versionPairs(maxLength).filter((p) => maxLength !== Infinity || p.from.length > 30_000);
        expect(pairs.length).toBeGreaterThan(0);
        let merged = 0;
        let changedLines = 0;
        for (let round = 0; round < rounds; round++) {
          const rand = seeded(seed + round);
          const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
          const pair = pick(pairs);
          const texts = {
            deployed: edit(pair.from, rand),
            oldDefaults: rand() < 0.8 ? pair.from : undefined,
            newDefaults: rand() < 0.5 ? pair.to : edit(pair.to, rand),
          };
          // Sometimes nothing is ignored, so image tags and versions are carried too.
          const settings = rand() < 0.3 ? { ignore: [] } : {};
          const choices = new Map<string, Decision>();
          const choose = (diff: ValuesDiff) => {
            // The same choices on both paths (drawn once, on the first): keep, take, merge or a typed value.
            if (choices.size === 0) {
              for (const e of diff.entries.filter((x) => x.label === 'conflict')) {
                const roll = rand();
                choices.set(e.path, roll < 0.4 ? 'keepSite' : roll < 0.7 ? 'takeNew' : e.suggestion !== undefined && roll < 0.85 ? { value: e.suggestion } : { value: pick(pool) });
              }
            }
            return Object.fromEntries(choices);
          };
          const fast = run(false, texts, settings, choose);
          const full = run(true, texts, settings, choose);
          const where = `round ${round} (${pair.name})`;
          expect(fast.error, where).toBe(full.error);
          expect(fast.diff, where).toEqual(full.diff);
          expect(fast.text, where).toBe(full.text);
          if (fast.text !== undefined) {
            merged++;
            if (fast.text !== texts.newDefaults) changedLines++;
          }
        }
        // Nearly every round merged, and most wrote something: a path that refused everything would agree trivially.
        expect(merged).toBeGreaterThanOrEqual(Math.ceil(rounds * 0.8));
        expect(changedLines).toBeGreaterThanOrEqual(Math.ceil(rounds * 0.5));
      },
      SEED + (maxLength === Infinity ? 1_000 : 0),
    ),
  );
});
