import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../../src/screens/migrations-columns.js';
import { readableLine } from '../../../src/screens/migrations-evidence.js';
import { sparkline } from '../../../src/screens/migrations-sparkline.js';
import { wrapText } from '../../../src/screens/migrations-wrap.js';

describe('screen helpers', () => {
  it('wraps to the width with a hanging indent, leaving room for a label on the first row, and cuts words longer than a row', () => {
    const rows = wrapText('  • closed-client-socket, from migration virtual-machines/kubevirt-workload-update-abcde (VMI virtual-machines/web-01):', 30, 2, 20);
    expect(rows[0]!.length).toBeLessThanOrEqual(20);
    expect(rows.slice(1).every((r) => r.length <= 30 && r.startsWith('    '))).toBe(true);
    expect(rows.map((r) => r.trim()).join('')).toContain('virtual-machines/kubevirt-workload-update-abcde');
    expect(wrapText('', 30)).toEqual(['']);
  });

  it('fits columns into the pane, taking room from the wide ones, never below their minimum', () => {
    expect(fitWidths(80, [{ natural: 20, min: 5 }, { natural: 10, min: 5 }])).toEqual([20, 10]);
    const w = fitWidths(44, [{ natural: 30, min: 12 }, { natural: 27, min: 12 }, { natural: 9, min: 7 }, { natural: 6, min: 6 }]);
    expect(w.reduce((a, b) => a + b, 0) + 6).toBeLessThanOrEqual(44);
    expect(w[0]).toBeGreaterThanOrEqual(12);
    expect(w[3]).toBe(6);
  });

  it('draws the outdated count as bars scaled to the largest value', () => {
    expect(sparkline([8, 4, 0], 10)).toBe('█▅▁');
    expect(sparkline([1, 2, 3, 4, 5], 3)).toHaveLength(3);
  });

  it('renders KubeVirt JSON log lines readably and leaves other lines alone', () => {
    expect(readableLine('{"component":"virt-handler","level":"error","msg":"boom","reason":"why","name":"web","namespace":"vms","timestamp":"2026-11-22T04:00:00.000000Z"}')).toBe('2026-11-22T04:00:00 virt-handler error: boom: why (vms/web)');
    expect(readableLine('E1122 04:00:00 plain klog line')).toBe('E1122 04:00:00 plain klog line');
    expect(readableLine('{not json')).toBe('{not json');
  });
});
