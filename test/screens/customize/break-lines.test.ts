import { describe, expect, it } from 'vitest';
import { atomsOf, flowPieces, flowText } from '../../../src/screens/customize/break-lines.js';

const squash = (rows: string[]) => rows.join('').replace(/\s+/g, '');

describe('atomsOf: where a line may break', () => {
  it.each([
    ['path', 'charts.kubevirt.service.type', ['charts.', 'kubevirt.', 'service.', 'type']],
    ['path', 'a.annotations["storageclass.kubevirt.io/x"]', ['a.', 'annotations', '["storageclass.', 'kubevirt.', 'io/x"]']],
    ['value', '["a","b"]', ['["a",', '"b"]']],
    ['value', '*/2 * *', ['*/2 ', '* ', '*']],
    ['words', 'keeps the site', ['keeps ', 'the ', 'site']],
  ] as const)('%s %s', (kind, text, atoms) => {
    expect(atomsOf(text, kind)).toEqual(atoms);
  });
});

describe('flowPieces: every character kept, every row within the width', () => {
  const cidr = '["{{ .spectro.system.kubernetes.podCIDR }}"]';
  const svc = '["{{ .spectro.system.kubernetes.serviceCIDR }}"]';
  const path = 'charts.cilium.ipam.operator.clusterPoolIPv4PodCIDRList';
  it.each([12, 20, 35, 49, 81, 120])('at width %i', (width) => {
    const rows = flowPieces(
      [
        { text: `${path}:`, breaks: 'path' },
        { text: ` ${cidr}`, breaks: 'value' },
        { text: ' → ', breaks: 'words' },
        { text: svc, breaks: 'value' },
      ],
      width,
      { indent: 2, firstWidth: width - 4 },
    );
    for (const r of rows) expect([...r].length).toBeLessThanOrEqual(width);
    expect(squash(rows)).toBe(`${path}:${cidr}→${svc}`.replace(/\s+/g, ''));
    // Two values that differ only in their middle stay told apart.
    expect(squash(rows)).toContain('podCIDR');
    expect(squash(rows)).toContain('serviceCIDR');
  });

  it('breaks a path after its dots, not inside a key', () => {
    expect(flowText('charts.virtual-machine-orchestrator.kubevirt.service.type', 'path', 40)).toEqual(['charts.virtual-machine-orchestrator.', 'kubevirt.service.type']);
  });

  it('splits a run longer than a row at the row end and goes on (nothing dropped)', () => {
    expect(flowText('abcdefghijklmnopqrstuvwxyz', 'value', 10)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxyz']);
  });

  it('indents the rows after the first', () => {
    expect(flowText('one two three four', 'words', 10, { indent: 2 })).toEqual(['one two', '  three', '  four']);
  });
});
