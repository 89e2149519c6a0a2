import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { applyCarryToJs, type CarryItem } from '../../src/values/carry.js';
import { diffValues } from '../../src/values/diff.js';
import { mergeValues, mergeValuesDocument } from '../../src/values/merge.js';
import { parseValues } from '../../src/values/values-document.js';

interface Case {
  name: string;
  newDefaults: string;
  deployed?: string;
  carry: CarryItem[];
  expected: string;
}

const lines = (...l: string[]): string => `${l.join('\n')}\n`;

const cases: Case[] = [
  {
    name: 'replaces a scalar and keeps the comment on its line',
    newDefaults: lines('a: 1 # keep me', 'b: 2'),
    carry: [{ path: 'a', value: 5 }],
    expected: lines('a: 5 # keep me', 'b: 2'),
  },
  {
    name: 'keeps the target quotes for a typed-in string',
    newDefaults: lines('svc:', '  loadBalancerIP: ""', '  type: LoadBalancer'),
    carry: [{ path: 'svc.loadBalancerIP', value: '10.10.1.5' }],
    expected: lines('svc:', '  loadBalancerIP: "10.10.1.5"', '  type: LoadBalancer'),
  },
  {
    name: 'copies a deployed macro exactly as written (single quotes stay single)',
    newDefaults: lines('x: ""', 'y: 1'),
    deployed: lines("x: '{{ .spectro.system.cluster.uid }}'", 'y: 1'),
    carry: [{ path: 'x', value: '{{ .spectro.system.cluster.uid }}' }],
    expected: lines("x: '{{ .spectro.system.cluster.uid }}'", 'y: 1'),
  },
  {
    name: 'quotes a macro that has no written form (a `{` cannot start a plain value)',
    newDefaults: lines('x: 1'),
    carry: [{ path: 'x', value: '{{ .spectro.pack.kubernetes.pack.podCIDR }}' }],
    expected: lines('x: "{{ .spectro.pack.kubernetes.pack.podCIDR }}"'),
  },
  {
    name: 'writes a profile variable plain',
    newDefaults: lines('pool:', '  - 10.0.0.1-10.0.0.9'),
    carry: [{ path: 'pool', value: ['${metallb-ip-pool}'] }],
    expected: lines('pool:', '  - ${metallb-ip-pool}'),
  },
  {
    name: 'adds a key at the end of its map, before the comments that follow',
    newDefaults: lines('a:', '  x: 1', '  # about b', 'b: 2'),
    carry: [{ path: 'a.extra', value: 'new' }],
    expected: lines('a:', '  x: 1', '  extra: new', '  # about b', 'b: 2'),
  },
  {
    name: 'creates missing parents in the document style',
    newDefaults: lines('a:', '  x: 1', 'b: 2'),
    carry: [
      { path: 'a.p.q.r', value: true },
      { path: 'a.p.s', value: [1, 2] },
    ],
    expected: lines('a:', '  x: 1', '  p:', '    q:', '      r: true', '    s:', '      - 1', '      - 2', 'b: 2'),
  },
  {
    name: 'fills a key that has no value, after its comment',
    newDefaults: lines('c:', '  customizeComponents: # none by default', '  # flags:', '  #   api: {}', '  next: 1'),
    carry: [{ path: 'c.customizeComponents.flags.api.v', value: '5' }],
    expected: lines('c:', '  customizeComponents: # none by default', '    flags:', '      api:', '        v: "5"', '  # flags:', '  #   api: {}', '  next: 1'),
  },
  {
    name: 'writes a scalar into a key that has no value',
    newDefaults: lines('registryIP: #Ex: 10.10.225.20', 'other: 1'),
    carry: [{ path: 'registryIP', value: '10.0.0.7' }],
    expected: lines('registryIP: 10.0.0.7 #Ex: 10.10.225.20', 'other: 1'),
  },
  {
    name: 'turns an empty flow map into a block map',
    newDefaults: lines('annotations: {} # none', 'x: 1'),
    carry: [{ path: 'annotations["storageclass.kubevirt.io/is-default-virt-class"]', value: 'true' }],
    expected: lines('annotations: # none', '  storageclass.kubevirt.io/is-default-virt-class: "true"', 'x: 1'),
  },
  {
    name: 'replaces a flow list with the deployed text when that was flow too',
    newDefaults: lines('ipam:', '  list: [ "10.0.0.0/8" ]', '  mode: cluster-pool'),
    deployed: lines('ipam:', '  list: [ "{{ .spectro.pack.kubernetes.pack.podCIDR }}" ]', '  mode: cluster-pool'),
    carry: [{ path: 'ipam.list', value: ['{{ .spectro.pack.kubernetes.pack.podCIDR }}'] }],
    expected: lines('ipam:', '  list: [ "{{ .spectro.pack.kubernetes.pack.podCIDR }}" ]', '  mode: cluster-pool'),
  },
  {
    name: 'replaces a flow list with a block list when the site wrote a block',
    newDefaults: lines('ipam:', '  list: [ "10.0.0.0/8" ] # default', '  mode: cluster-pool'),
    deployed: lines('ipam:', '  list:', '  - "{{ .spectro.pack.kubernetes.pack.podCIDR }}"'),
    carry: [{ path: 'ipam.list', value: ['{{ .spectro.pack.kubernetes.pack.podCIDR }}'] }],
    expected: lines('ipam:', '  list: # default', '    - "{{ .spectro.pack.kubernetes.pack.podCIDR }}"', '  mode: cluster-pool'),
  },
  {
    name: 'edits a list of scalars item by item, keeping the comments between items',
    newDefaults: lines('gates:', '  - A', '  # B is needed for x', '  - B', '  - C', '#- D', 'next: 1'),
    carry: [{ path: 'gates', value: ['A', 'B', 'SMM', 'E'] }],
    expected: lines('gates:', '  - A', '  # B is needed for x', '  - B', '  - SMM', '  - E', '#- D', 'next: 1'),
  },
  {
    name: 'keeps the lines of list items that stay and writes new ones plain',
    newDefaults: lines('ns:', '  - "default"', '  - other'),
    carry: [{ path: 'ns', value: ['site', 'default', 'other', 'on'] }],
    expected: lines('ns:', '  - site', '  - "default"', '  - other', '  - "on"'),
  },
  {
    name: 'adds an item to a list of maps matched by key',
    newDefaults: lines('plugins:', '  - name: A', '    args:', '      x: 1', 'after: true'),
    carry: [{ path: 'plugins[name="B"]', value: { name: 'B', args: { reasons: ['OOM'] } } }],
    expected: lines('plugins:', '  - name: A', '    args:', '      x: 1', '  - name: B', '    args:', '      reasons:', '        - OOM', 'after: true'),
  },
  {
    name: 'sets a field inside a keyed item, and creates the item with its key when missing',
    newDefaults: lines('plugins:', '  - name: A', '    args:', '      x: 1'),
    carry: [
      { path: 'plugins[name="A"].args.x', value: 2 },
      { path: 'plugins[name="C"].args.z', value: 3 },
    ],
    expected: lines('plugins:', '  - name: A', '    args:', '      x: 2', '  - name: C', '    args:', '      z: 3'),
  },
  {
    name: 'appends at the next index',
    newDefaults: lines('l:', '  - a', '  - b'),
    carry: [{ path: 'l[2]', value: 'c' }],
    expected: lines('l:', '  - a', '  - b', '  - c'),
  },
  {
    name: 'removes a key with its lines',
    newDefaults: lines('a:', '  grafana:', '    namespace: monitoring', '  keep: 1'),
    carry: [{ path: 'a.grafana', remove: true }],
    expected: lines('a:', '  keep: 1'),
  },
  {
    name: 'leaves an empty map, not null, when the last key goes',
    newDefaults: lines('a:', '  only: 1', 'b: 2'),
    carry: [{ path: 'a.only', remove: true }],
    expected: lines('a: {}', 'b: 2'),
  },
  {
    name: 'removes a keyed list item',
    newDefaults: lines('l:', '  - name: a', '    v: 1', '  - name: b', '    v: 2'),
    carry: [{ path: 'l[name="a"]', remove: true }],
    expected: lines('l:', '  - name: b', '    v: 2'),
  },
  {
    name: 'rewrites a list item when its first key is removed (the dash shares its line)',
    newDefaults: lines('l:', '  - x: 1', '    y: 2'),
    carry: [{ path: 'l[0].x', remove: true }],
    expected: lines('l:', '  - y: 2'),
  },
  {
    name: 'ignores the removal of something that is not there',
    newDefaults: lines('a: 1'),
    carry: [
      { path: 'b.c', remove: true },
      { path: 'a.x', remove: true },
    ],
    expected: lines('a: 1'),
  },
  {
    name: 'changes a scalar into a map',
    newDefaults: lines('a: off # default', 'b: 1'),
    carry: [{ path: 'a', value: { enabled: true } }],
    expected: lines('a: # default', '  enabled: true', 'b: 1'),
  },
  {
    name: 'changes a map into a scalar',
    newDefaults: lines('a:', '  enabled: true', 'b: 1'),
    carry: [{ path: 'a', value: false }],
    expected: lines('a: false', 'b: 1'),
  },
  {
    name: 'replaces a literal block',
    newDefaults: lines('script: |', '  echo a', '  echo b', 'next: 1'),
    carry: [{ path: 'script', value: 'echo c\n' }],
    expected: lines('script: |', '  echo c', 'next: 1'),
  },
  {
    name: 'writes a new multi-line string as a literal block',
    newDefaults: lines('a:', '  x: 1'),
    carry: [{ path: 'a.cfg', value: 'line 1\n  indented\nline 3' }],
    expected: lines('a:', '  x: 1', '  cfg: |-', '    line 1', '      indented', '    line 3'),
  },
  {
    name: 'double-quotes a multi-line string a literal block cannot hold',
    newDefaults: lines('a: 1'),
    carry: [{ path: 'b', value: '  leading\nx\n\n' }],
    expected: lines('a: 1', 'b: "  leading\\nx\\n\\n"'),
  },
  {
    name: 'follows a 4-space document',
    newDefaults: lines('top:', '    list:', '        - a', '    m:', '        k: 1'),
    carry: [{ path: 'top.new', value: { inner: { deep: 1 }, items: [{ name: 'x', v: 1 }] } }],
    expected: lines('top:', '    list:', '        - a', '    m:', '        k: 1', '    new:', '        inner:', '            deep: 1', '        items:', '            - name: x', '              v: 1'),
  },
  {
    name: 'follows a document whose lists are not indented',
    newDefaults: lines('a:', '  l:', '  - x', '  m:', '    k: 1'),
    carry: [{ path: 'a.extra', value: ['y'] }],
    expected: lines('a:', '  l:', '  - x', '  m:', '    k: 1', '  extra:', '  - "y"'),
  },
  {
    name: 'nests new keys after new keys of an inner map at the same offset',
    newDefaults: lines('a:', '  b:', '    c: 1'),
    carry: [
      { path: 'a.z', value: 1 },
      { path: 'a.b.d', value: 2 },
      { path: 'top', value: 3 },
    ],
    expected: lines('a:', '  b:', '    c: 1', '    d: 2', '  z: 1', 'top: 3'),
  },
  {
    name: 'writes into the second document of a multi-document value',
    newDefaults: lines('a: 1', '---', 'kind: X', 'spec:', '  n: 2'),
    carry: [{ path: '@1.spec.n', value: 3 }],
    expected: lines('a: 1', '---', 'kind: X', 'spec:', '  n: 3'),
  },
  {
    name: 'appends a document the site added',
    newDefaults: lines('a: 1'),
    carry: [{ path: '@1', value: { kind: 'Extra' } }],
    expected: lines('a: 1', '---', 'kind: Extra'),
  },
  {
    name: 'writes into empty values',
    newDefaults: '',
    carry: [{ path: 'a.b', value: 1 }],
    expected: lines('a:', '  b: 1'),
  },
  {
    name: 'keeps a file that does not end with a newline',
    newDefaults: 'a: 1',
    carry: [{ path: 'b', value: 2 }],
    expected: 'a: 1\nb: 2',
  },
  {
    name: 'quotes strings Helm (YAML 1.1) would read as something else',
    newDefaults: lines('a: 1'),
    carry: [{ path: 'flags', value: { y: 'yes', mode: '0755', size: '1_000', time: '1:30', ip: '10.0.0.7', plain: 'fine', n: 1 } }],
    expected: lines('a: 1', 'flags:', '  "y": "yes"', '  mode: "0755"', '  size: "1_000"', '  time: "1:30"', '  ip: 10.0.0.7', '  plain: fine', '  "n": 1'),
  },
  {
    name: 'quotes keys that need it',
    newDefaults: lines('a: 1'),
    carry: [{ path: '["has space"]["true"]', value: 1 }],
    expected: lines('a: 1', '"has space":', '  "true": 1'),
  },
  {
    name: 'applies carries in order (a later one may go inside an earlier one)',
    newDefaults: lines('a: 1'),
    carry: [
      { path: 'a', value: { b: 1 } },
      { path: 'a.c', value: 2 },
    ],
    expected: lines('a:', '  b: 1', '  c: 2'),
  },
];

describe('mergeValues', () => {
  it.each(cases)('$name', ({ newDefaults, deployed, carry, expected }) => {
    const merged = mergeValues({ newDefaults, carry, deployed });
    expect(merged).toBe(expected);
    // The merge's own check, restated: the result reads as the defaults with the carry applied.
    const want = applyCarryToJs(
      parseValues(newDefaults).docs.map((d) => d.toJS()),
      carry,
    );
    expect(parseValues(merged).docs.map((d) => d.toJS())).toEqual(want);
  });

  it('returns the text untouched when a carried value equals the new default', () => {
    const text = lines('a: "1" # c', 'l: [x, y]', 'm:', '  k: v');
    expect(mergeValues({ newDefaults: text, carry: [{ path: 'a', value: '1' }, { path: 'l', value: ['x', 'y'] }, { path: 'm', value: { k: 'v' } }] })).toBe(text);
  });

  it('reads list positions as positions in the new defaults, whatever the carry order', () => {
    const newDefaults = lines('l:', '  - name: a', '  - v: 1', '  - v: 2', '  - v: 3');
    const diff = diffValues({ deployed: lines('l:', '  - name: a', '  - v: 9'), newDefaults });
    expect(diff.entries.map((e) => e.path)).toEqual(['l[1].v', 'l[2]', 'l[3]']);
    const carry = diff.entries.map((e) => ('deployed' in e ? { path: e.path, value: e.deployed } : { path: e.path, remove: true as const }));
    expect(mergeValues({ newDefaults, carry })).toBe(lines('l:', '  - name: a', '  - v: 9'));
    expect(mergeValues({ newDefaults, carry: [...carry].reverse() })).toBe(lines('l:', '  - name: a', '  - v: 9'));
  });

  it('refuses to create a list item out of order', () => {
    expect(() => mergeValues({ newDefaults: lines('l:', '  - a'), carry: [{ path: 'l[3]', value: 'x' }] })).toThrow(InputError);
    expect(() => mergeValues({ newDefaults: lines('l:', '  - a'), carry: [{ path: 'l[3]', value: 'x' }] })).toThrow(/item \[3\] does not exist and the list has 1 item/);
  });

  it('refuses wildcard paths', () => {
    expect(() => mergeValues({ newDefaults: 'a: 1', carry: [{ path: 'a.*', value: 1 }] })).toThrow(/wildcard/);
  });

  it('writes the lines it adds with the document\'s line breaks', () => {
    const merged = mergeValues({ newDefaults: 'a:\r\n  b: 1 # c\r\n  l:\r\n    - x\r\nz: {}\r\n', carry: [{ path: 'a.b', value: 2 }, { path: 'a.l', value: ['x', 'y'] }, { path: 'a.m', value: { k: 1 } }, { path: 'z.q', value: 1 }] });
    expect(merged).toBe('a:\r\n  b: 2 # c\r\n  l:\r\n    - x\r\n    - "y"\r\n  m:\r\n    k: 1\r\nz:\r\n  q: 1\r\n');
  });

  it('refuses, as the operator\'s call, to write under an anchor that aliases share', () => {
    const newDefaults = lines('a: &x', '  k: 1', 'b: *x');
    expect(() => mergeValues({ newDefaults, carry: [{ path: 'a.k', value: 2 }] })).toThrow(InputError);
    expect(() => mergeValues({ newDefaults, carry: [{ path: 'a.k', value: 2 }] })).toThrow(/anchors and aliases/);
  });

  it('returns the merged values parsed, for the rules', () => {
    const merged = mergeValuesDocument({ newDefaults: lines('a: 1'), carry: [{ path: 'a', value: 2 }] });
    expect(merged.text).toBe(lines('a: 2'));
    expect(merged.docs[0]?.toJS()).toEqual({ a: 2 });
  });

  it('writes through an alias by copying what it points at', () => {
    const merged = mergeValues({ newDefaults: lines('base: &b', '  x: 1', 'copy: *b'), carry: [{ path: 'copy.z', value: 2 }] });
    expect(merged).toBe(lines('base: &b', '  x: 1', 'copy:', '  x: 1', '  z: 2'));
  });
});

describe('applyCarryToJs', () => {
  it('creates, replaces and removes like the merge', () => {
    const docs = [{ a: { b: 1 }, l: [{ name: 'x', v: 1 }], s: 'scalar' }];
    const out = applyCarryToJs(docs, [
      { path: 'a.c', value: 2 },
      { path: 'l[name="y"].v', value: 3 },
      { path: 's.k', value: 4 },
      { path: 'a.b', remove: true },
      { path: 'missing.deep', remove: true },
    ]);
    expect(out).toEqual([{ a: { c: 2 }, l: [{ name: 'x', v: 1 }, { name: 'y', v: 3 }], s: { k: 4 } }]);
    expect(docs[0]?.a).toEqual({ b: 1 });
  });
});

describe('edits that meet at the end of the file', () => {
  it('puts the lines of a value before keys its parent map gains', () => {
    const newDefaults = 'a:\n  ns: ""';
    const carry: CarryItem[] = [
      { path: 'a.ns.sub', value: 'x' },
      { path: 'a.zz', value: 1 },
      { path: 'top', value: 2 },
    ];
    expect(mergeValues({ newDefaults, carry })).toBe('a:\n  ns:\n    sub: x\n  zz: 1\ntop: 2');
  });
});
