/**
 * Finding what a rule path points at in a values document. A wildcard fans out over what exists;
 * a named key that is missing is reported as missing (with where the path stopped), because a
 * rule about `pools.*.spec.autoAssign` must fail for a pool that does not set `autoAssign`.
 */
import { isMap, isScalar, isSeq, Document, YAMLMap, type Node } from 'yaml';
import { descend } from './node-path.js';
import { describeKind } from './describe.js';
import { formatPath, type PathSegment, type ValuesPath } from './path.js';
import { deref, keyName, nodeToJs, type ValuesDocument } from './values-document.js';

export type PathMatch =
  | { path: string; found: true; value: unknown }
  /** `reason` says where the path stopped: "charts.cilium has no key `ipam`". */
  | { path: string; found: false; reason: string };

export function resolvePattern(values: ValuesDocument, pattern: ValuesPath): PathMatch[] {
  const docs = values.docs.length > 0 ? values.docs : [new Document(new YAMLMap())];
  const out: PathMatch[] = [];
  const seen = new Set<string>();
  docs.forEach((doc, i) => {
    if (pattern.doc !== undefined && pattern.doc !== i) return;
    const root = deref(doc.contents as Node | null, doc);
    const walker = new Resolver(doc, i, pattern.segments, out, seen);
    walker.visit(isScalar(root) && root.value === null ? new YAMLMap() : root, 0, [], false);
  });
  return out;
}

class Resolver {
  constructor(
    private readonly doc: Document,
    private readonly docIndex: number,
    private readonly segs: readonly PathSegment[],
    private readonly out: PathMatch[],
    private readonly seen: Set<string>,
  ) {}

  private format(at: readonly PathSegment[]): string {
    return formatPath({ doc: this.docIndex, segments: [...at] });
  }

  private push(m: PathMatch): void {
    if (this.seen.has(m.path)) return;
    this.seen.add(m.path);
    this.out.push(m);
  }

  /** `afterDeep`: below a `**`, paths that do not continue are dropped rather than reported missing. */
  visit(node: Node | undefined, i: number, at: PathSegment[], afterDeep: boolean): void {
    if (i === this.segs.length) {
      if (node !== undefined) this.push({ path: this.format(at), found: true, value: nodeToJs(node, this.doc) });
      return;
    }
    const seg = this.segs[i] as PathSegment;
    if (seg.kind === 'deep') {
      this.visit(node, i + 1, at, true);
      for (const [childSeg, child] of this.children(node)) this.visit(child, i, [...at, childSeg], true);
      return;
    }
    if (seg.kind === 'any') {
      for (const [childSeg, child] of this.children(node)) this.visit(child, i + 1, [...at, childSeg], afterDeep);
      return;
    }
    const child = this.child(node, seg);
    if (child !== undefined) {
      this.visit(child, i + 1, [...at, seg], afterDeep);
      return;
    }
    if (afterDeep) return;
    const where = at.length === 0 && this.docIndex === 0 ? 'the values' : this.format(at);
    const what = seg.kind === 'key' ? `key \`${seg.key}\`` : seg.kind === 'index' ? `item [${seg.index}]` : `item with ${seg.field}=${JSON.stringify(seg.value)}`;
    const kind = node === undefined ? undefined : describeKind(nodeToJs(node, this.doc));
    const reason = node === undefined || (seg.kind === 'key' ? isMap(node) : isSeq(node)) ? `${where} has no ${what}` : `${where} is ${kind}, so it has no ${what}`;
    this.push({ path: this.format([...at, ...this.segs.slice(i)]), found: false, reason });
  }

  private children(node: Node | undefined): Array<[PathSegment, Node | undefined]> {
    if (isMap(node)) return node.items.map((p) => [{ kind: 'key', key: keyName(p.key, this.doc) }, deref(p.value as Node | null, this.doc)]);
    if (isSeq(node)) return node.items.map((item, index) => [{ kind: 'index', index }, deref(item as Node | null, this.doc)]);
    return [];
  }

  private child(node: Node | undefined, seg: PathSegment): Node | undefined {
    return node === undefined ? undefined : descend(node, this.doc, [seg]);
  }
}
