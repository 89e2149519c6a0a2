/**
 * The values diff of spec 9.1.5: what the site changed, what the new version changed, and what
 * follows the pack version and is ignored. Pure: strings (or parsed values) in, a labelled list out.
 *
 * Labels, for a path where the deployed value differs from the new default:
 * - carried: old default == new default != deployed (a site override the new version leaves alone)
 * - newDefault: deployed == old default != new default (take the new default)
 * - conflict: deployed, old and new default all differ (both sides changed it)
 * - ignored: the path matches `settings.ignore` (image tags and versions follow the pack version)
 * - candidate: no old defaults (a 2-way comparison): any other difference
 * "Missing" takes part like a value: a key the site deleted, or one a new version added, is a difference too.
 */
import { Document, isMap, isScalar, isSeq, YAMLMap, type Node } from 'yaml';
import { nodesEqual, sameScannedText } from './equal.js';
import { formatPath, type PathSegment } from './path.js';
import { PatternSet, type MatchState } from './pattern.js';
import { describeKind } from './describe.js';
import { describeListChange, isScalarList, mergeScalarLists } from './scalar-list.js';
import { ValuesSettingsSchema, type ValuesSettings, type ValuesSettingsInput } from './settings-schema.js';
import { deref, kindOf, nodeToJs, toValuesDocument, type ValuesDocument, type ValuesInput } from './values-document.js';
import { asMap, asSeq, listMode, mapChildren, seqChildren, type Sides, type Slot } from './walk.js';

export const diffLabels = ['carried', 'newDefault', 'conflict', 'ignored', 'candidate'] as const;
export type DiffLabel = (typeof diffLabels)[number];

export interface DiffEntry {
  /** Where, in the path syntax of `path.ts` (`@N` prefix for documents after the first). */
  path: string;
  label: DiffLabel;
  /** Absent when the deployed values have nothing at the path (likewise for the defaults). */
  deployed?: unknown;
  oldDefault?: unknown;
  newDefault?: unknown;
  /** For lists of scalars changed on both sides (or 2-way): the item-level merge to offer. */
  suggestion?: unknown;
  note?: string;
}

export type DiffMode = 'threeWay' | 'twoWay';

export interface ValuesDiff {
  mode: DiffMode;
  entries: DiffEntry[];
  counts: Record<DiffLabel, number>;
}

export interface DiffValuesInput {
  deployed: ValuesInput;
  newDefaults: ValuesInput;
  /** The defaults of the deployed version: with them the diff is 3-way, without it is 2-way. */
  oldDefaults?: ValuesInput | undefined;
  settings?: ValuesSettingsInput | undefined;
}

export function emptyCounts(): Record<DiffLabel, number> {
  return { carried: 0, newDefault: 0, conflict: 0, ignored: 0, candidate: 0 };
}

/** Settings checked and their ignore patterns compiled once per settings object (a customize run diffs every pack with the runbook's one). */
const compiled = new WeakMap<object, { settings: ValuesSettings; ignore: PatternSet }>();
const noSettings = {};

function compile(given: ValuesSettingsInput | undefined): { settings: ValuesSettings; ignore: PatternSet } {
  const key = given ?? noSettings;
  let c = compiled.get(key);
  if (!c) {
    const settings = ValuesSettingsSchema.parse(key);
    c = { settings, ignore: new PatternSet(settings.ignore) };
    compiled.set(key, c);
  }
  return c;
}

export function diffValues(input: DiffValuesInput): ValuesDiff {
  const { settings, ignore } = compile(input.settings);
  const deployed = toValuesDocument(input.deployed, 'the deployed values');
  const newDefaults = toValuesDocument(input.newDefaults, 'the new default values');
  const oldDefaults = input.oldDefaults === undefined ? undefined : toValuesDocument(input.oldDefaults, 'the old default values');
  const walker = new DiffWalker(ignore, settings.listKeys, oldDefaults !== undefined);
  const docs = Math.max(deployed.docs.length, newDefaults.docs.length, oldDefaults?.docs.length ?? 0);
  for (let i = 0; i < docs; i++) walker.walkDocument(i, deployed, oldDefaults, newDefaults);
  const counts = emptyCounts();
  for (const e of walker.entries) counts[e.label] += 1;
  return { mode: oldDefaults ? 'threeWay' : 'twoWay', entries: walker.entries, counts };
}

/** Empty values (no document, or an empty one) compare as an empty map, so their keys show one by one. */
function rootOf(values: ValuesDocument | undefined, i: number): { doc: Document; node: Slot } {
  const doc = values?.docs[i];
  if (doc === undefined) return { doc: new Document(), node: values && i === 0 && values.docs.length === 0 ? new YAMLMap() : undefined };
  const node = deref(doc.contents as Node | null, doc);
  if (node === undefined || (isScalar(node) && node.value === null)) return { doc, node: new YAMLMap() };
  return { doc, node };
}

class DiffWalker {
  readonly entries: DiffEntry[] = [];
  private readonly segments: PathSegment[] = [];
  private doc = 0;
  private sides!: Sides;
  /** The texts of the deployed values and the new defaults, when the scanner read both (see `sameScannedText`). */
  private texts: { deployed: string; newDefaults: string } | undefined;

  constructor(
    private readonly ignore: PatternSet,
    private readonly listKeys: readonly string[],
    private readonly threeWay: boolean,
  ) {}

  walkDocument(i: number, deployed: ValuesDocument, oldDefaults: ValuesDocument | undefined, newDefaults: ValuesDocument): void {
    const d = rootOf(deployed, i);
    const o = oldDefaults ? rootOf(oldDefaults, i) : undefined;
    const n = rootOf(newDefaults, i);
    this.doc = i;
    this.sides = { deployed: d.doc, oldDefaults: o?.doc, newDefaults: n.doc };
    this.texts = deployed.scanned && newDefaults.scanned ? { deployed: deployed.text, newDefaults: newDefaults.text } : undefined;
    this.visit(d.node, o?.node, n.node, this.ignore.start(i));
  }

  private visit(d: Slot, o: Slot, n: Slot, state: MatchState): void {
    if (d === undefined && n === undefined) return;
    // Written alike where the site runs and in the new version: nothing under it differs (the common case, found without a walk).
    if (d !== undefined && n !== undefined && this.writtenAlike(d, n)) return;
    if (this.ignore.accepts(state)) {
      if (!nodesEqual(d, this.sides.deployed, n, this.sides.newDefaults)) this.emitIgnored(d, o, n);
      return;
    }
    if (isMap(d) && isMap(n)) {
      for (const c of mapChildren(d, asMap(o), n, this.sides, this.writtenAlike)) this.child(c.seg, c.deployed, c.oldDefault, c.newDefault, state);
      return;
    }
    if (isSeq(d) && isSeq(n)) {
      const seqs = [
        { seq: d, doc: this.sides.deployed },
        { seq: n, doc: this.sides.newDefaults },
      ];
      const os = asSeq(o);
      if (os && this.sides.oldDefaults) seqs.push({ seq: os, doc: this.sides.oldDefaults });
      const mode = listMode(seqs, this.listKeys);
      if (mode.kind !== 'whole') {
        for (const c of seqChildren(mode, d, os, n, this.sides)) this.child(c.seg, c.deployed, c.oldDefault, c.newDefault, state);
        return;
      }
    }
    this.leaf(d, o, n);
  }

  /** Written alike where the site runs and in the new version (both read by the scanner): nothing under it differs. */
  private readonly writtenAlike = (d: Node, n: Node): boolean => this.texts !== undefined && sameScannedText(d, this.texts.deployed, n, this.texts.newDefaults);

  private child(seg: PathSegment, d: Slot, o: Slot, n: Slot, state: MatchState): void {
    if (d !== undefined && n !== undefined && this.writtenAlike(d, n)) return;
    this.segments.push(seg);
    this.visit(d, o, n, this.ignore.size === 0 ? state : this.ignore.step(state, seg));
    this.segments.pop();
  }

  private same(a: Slot, aDoc: Document | undefined, b: Slot, bDoc: Document | undefined): boolean {
    if (a === undefined || b === undefined) return a === b;
    return nodesEqual(a, aDoc as Document, b, bDoc as Document);
  }

  private leaf(d: Slot, o: Slot, n: Slot): void {
    const { deployed: dDoc, oldDefaults: oDoc, newDefaults: nDoc } = this.sides;
    if (this.same(d, dDoc, n, nDoc)) return;
    let label: DiffLabel = 'candidate';
    if (this.threeWay) {
      if (this.same(o, oDoc, n, nDoc)) label = 'carried';
      else if (this.same(d, dDoc, o, oDoc)) label = 'newDefault';
      else label = 'conflict';
    }
    const entry = this.entry(label, d, o, n);
    const note = this.note(label, entry, d, o, n);
    if (note) entry.note = note;
    if ((label === 'conflict' || label === 'candidate') && isScalarList(entry.deployed) && isScalarList(entry.newDefault)) {
      const old = this.threeWay ? (isScalarList(entry.oldDefault) ? entry.oldDefault : []) : undefined;
      entry.suggestion = mergeScalarLists(entry.deployed, old, entry.newDefault);
    }
    this.entries.push(entry);
  }

  private emitIgnored(d: Slot, o: Slot, n: Slot): void {
    const entry = this.entry('ignored', d, o, n);
    if (this.threeWay && !this.same(d, this.sides.deployed, o, this.sides.oldDefaults)) {
      entry.note = 'the site changed this from the old default; ignored because it follows the pack version';
    }
    this.entries.push(entry);
  }

  private entry(label: DiffLabel, d: Slot, o: Slot, n: Slot): DiffEntry {
    const entry: DiffEntry = { path: formatPath({ doc: this.doc, segments: this.segments }), label };
    if (d !== undefined) entry.deployed = nodeToJs(d, this.sides.deployed);
    if (this.threeWay && o !== undefined) entry.oldDefault = nodeToJs(o, this.sides.oldDefaults as Document);
    if (n !== undefined) entry.newDefault = nodeToJs(n, this.sides.newDefaults);
    return entry;
  }

  private note(label: DiffLabel, entry: DiffEntry, d: Slot, o: Slot, n: Slot): string | undefined {
    if (d === undefined) {
      if (!this.threeWay) return 'not in the deployed values (probably added by the new version)';
      if (o === undefined) return 'added in the new version';
      return label === 'carried' ? 'removed by the site' : 'removed by the site, and changed in the new version';
    }
    if (n === undefined) {
      if (!this.threeWay) return 'not in the new defaults (added by the site, or removed in the new version)';
      if (o === undefined) return 'added by the site';
      return label === 'newDefault' ? 'removed in the new version' : 'changed by the site, and removed in the new version';
    }
    const dKind = describeKind(entry.deployed);
    const nKind = describeKind(entry.newDefault);
    if (kindOf(d) !== kindOf(n) || (dKind !== nKind && entry.deployed !== null && entry.newDefault !== null)) {
      return `type changed: ${dKind} deployed, ${nKind} in the new defaults`;
    }
    if (isScalarList(entry.deployed) && isScalarList(entry.newDefault)) {
      const old = this.threeWay && isScalarList(entry.oldDefault) ? entry.oldDefault : undefined;
      return describeListChange(entry.deployed, old, entry.newDefault);
    }
    return label === 'conflict' ? 'changed by the site and in the new version' : undefined;
  }
}
