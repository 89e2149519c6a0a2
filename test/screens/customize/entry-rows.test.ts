import { describe, expect, it } from 'vitest';
import { confirmRows } from '../../../src/screens/customize/confirm-rows.js';
import { decisionText, entryKey, proposalWords, undecidedConflicts } from '../../../src/screens/customize/conflict-choices.js';
import { differenceRows } from '../../../src/screens/customize/difference-lines.js';
import { entryLines, entrySearchText, valueText } from '../../../src/screens/customize/entry-rows.js';
import { packRows } from '../../../src/screens/customize/pack-rows.js';
import type { CustomizeEntry } from '../../../src/steps/customize/types.js';
import { className, featureGates, healthy, ioProfile, podCidr, serviceType } from './fixtures.js';

/** Rows joined and every space removed: what the rows say, wherever they wrapped. */
const flat = (rows: string[]) => rows.join('').replace(/\s+/g, '');
const compact = (s: string) => s.replace(/\s+/g, '');

describe('a difference’s row: its path and values whole at any width', () => {
  const pod = podCidr;
  const svc: CustomizeEntry = { ...podCidr, label: 'newDefault', result: ['{{ .spectro.system.kubernetes.serviceCIDR }}'] };
  it.each([30, 49, 60, 81, 120])('at %i columns', (width) => {
    for (const e of [pod, svc, featureGates, serviceType, className]) {
      const { rows } = entryLines(e, width);
      for (const r of rows) expect([...r].length).toBeLessThanOrEqual(width - 2);
      expect(flat(rows)).toContain(compact(e.path));
      expect(flat(rows)).toContain(compact(valueText(e.deployed)));
    }
    // A draft equal to what is deployed says so instead of repeating it; a different one is there whole.
    expect(flat(entryLines(pod, width).rows)).toContain('→(same)');
    expect(flat(entryLines(svc, width).rows)).toContain(compact('→ ["{{ .spectro.system.kubernetes.serviceCIDR }}"]'));
    // A conflict names the new default it set aside.
    expect(flat(entryLines(className, width).rows)).toContain('px-vm-block→(same)·newdefaultpx-csi-replicated');
  });

  it('lines the paths up after the label column on a wide screen; gives the text the columns on a narrow one', () => {
    expect(entryLines(serviceType, 120).rows).toEqual(['new default charts.virtual-machine-orchestrator.kubevirt.service.type: ClusterIP → LoadBalancer']);
    expect(entryLines(serviceType, 49).rows).toEqual(['new default charts.', '  virtual-machine-orchestrator.kubevirt.', '  service.type: ClusterIP → LoadBalancer']);
  });

  it('shows an empty string as "" and an absent value as (absent)', () => {
    expect(valueText('')).toBe('""');
    expect(valueText(undefined)).toBe('(absent)');
    expect(valueText({ a: [1] })).toBe('{"a":[1]}');
  });

  it('/ among the differences finds the label, the whole path, the values and the decision', () => {
    const text = entrySearchText(featureGates, 'merge both (proposed)');
    for (const q of ['conflict', featureGates.path, 'VolumeMigration', 'merge both']) expect(text).toContain(q);
  });
});

describe('a difference opened whole', () => {
  it.each([49, 81])('at %i columns: the path, the site value, the new default and the draft, each whole', (width) => {
    const rows = differenceRows(featureGates, width);
    for (const r of rows) expect([...r.text].length).toBeLessThanOrEqual(width);
    const text = flat(rows.map((r) => r.text));
    expect(text).toContain(compact(`path: ${featureGates.path}`));
    expect(text).toContain(compact(`site (deployed): ${JSON.stringify(featureGates.deployed)}`));
    expect(text).toContain(compact(`new default: ${JSON.stringify(featureGates.newDefault)}`));
    expect(text).toContain(compact(`draft now: ${JSON.stringify(featureGates.result)}`));
    // The path and the two values come first (a short screen shows them before the reasons).
    expect(rows.findIndex((r) => r.field === 'why')).toBeGreaterThan(rows.findIndex((r) => r.text.startsWith('draft now')));
  });
});

describe('the conflicts nobody decided', () => {
  const rows = packRows(healthy);
  it('are every conflict without an operator decision, in the rows’ order', () => {
    expect(undecidedConflicts(rows, {}).map((c) => c.entry.path)).toEqual([featureGates.path, className.path, ioProfile.path]);
    const decided = { [entryKey(rows[1]!, className)]: 'takeNew' as const };
    expect(undecidedConflicts(rows, decided).map((c) => c.entry.path)).toEqual([featureGates.path, ioProfile.path]);
  });

  it('say what c keeps for each', () => {
    expect(proposalWords(featureGates)).toBe("both lists merged (the new version's items, then the site's)");
    expect(proposalWords(className)).toBe('the site value');
    expect(proposalWords({ ...className, removed: 'gone in 4.10.0', decision: 'takeNew', result: undefined })).toBe('nothing: the key is dropped (the new version removed it)');
    expect(decisionText('k', className, {})).toBe('keep site (proposed)');
    expect(decisionText('k', className, { k: { value: 'px-db' } })).toBe('value px-db');
  });

  it.each([49, 81])('at %i columns the confirmation lists each conflict’s pack, path, both values and what c keeps, whole', (width) => {
    const list = undecidedConflicts(rows, {});
    const shown = confirmRows(list, width);
    for (const r of shown) expect([...r.text].length).toBeLessThanOrEqual(width);
    const text = flat(shown.map((r) => r.text));
    expect(text).toContain(compact('1. hop 1 · vmo-core-addon / virtual-machine-orchestrator 4.4.10 → 4.5.4'));
    expect(text).toContain(compact(`site: ${JSON.stringify(featureGates.deployed)}`));
    expect(text).toContain(compact(`c keeps: both lists merged (the new version's items, then the site's): ${JSON.stringify(featureGates.result)}`));
    expect(text).toContain(compact('3. hop 2 · vmo-infra / csi-portworx-generic 3.1.8 → 3.2.1'));
    expect(text).toContain(compact(`path: ${ioProfile.path}`));
    expect(text).toContain(compact('site: db_remote new default: auto c keeps: the site value: db_remote'));
  });
});
