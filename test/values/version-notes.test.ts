/** The runbook's version notes: which hops they apply to, and what the schema refuses. */
import { describe, expect, it } from 'vitest';
import { VersionNoteSchema } from '../../src/values/version-notes-schema.js';
import { crosses, notesFor, variablesFor } from '../../src/values/version-notes.js';

const note = VersionNoteSchema.parse({
  since: '4.10.0',
  source: 'the vendor',
  requires: { version: '4.9.9', reason: 'r' },
  moved: [{ from: 'a.b', to: 'a.c' }],
  variables: [{ name: 'LOCAL_ADMIN_PASSWORD', description: 'd' }],
});

describe('version notes', () => {
  it.each([
    ['4.9.9', '4.10.0', true],
    ['4.9.3', '4.10.1', true],
    ['4.10.0', '4.10.2', false],
    ['4.8.4', '4.9.9', false],
    ['4.9.9', '4.11.0', true],
  ])('a hop %s → %s crosses 4.10.0: %s', (from, to, expected) => {
    expect(crosses(note, from, to)).toBe(expected);
  });

  it('applies to its pack (the orchestration pack by default) and names each variable once', () => {
    expect(notesFor([note], 'virtual-machine-orchestrator', 'virtual-machine-orchestrator', '4.9.9', '4.10.0')).toHaveLength(1);
    expect(notesFor([note], 'csi-rook-ceph-helm', 'virtual-machine-orchestrator', '4.9.9', '4.10.0')).toHaveLength(0);
    expect(variablesFor([note, note], 'virtual-machine-orchestrator', 'virtual-machine-orchestrator', '4.9.9', '4.10.0')).toEqual([
      { name: 'LOCAL_ADMIN_PASSWORD', description: 'd', sensitive: true, format: 'string', since: '4.10.0', source: 'the vendor' },
    ]);
  });

  it.each([
    [{ since: '4.10.0', source: 's', moved: [{ from: 'a.*', to: 'b' }] }, 'expected a path of keys only'],
    [{ since: '4.10.0', source: 's', moved: [{ from: 'a[0].b', to: 'b' }] }, 'expected a path of keys only'],
    [{ since: '4.10', source: 's', variables: [{ name: 'has space', description: 'd' }] }, 'expected a variable name'],
    [{ since: 'latest', source: 's' }, 'expected a version'],
  ])('refuses %j', (input, message) => {
    const r = VersionNoteSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain(message);
  });
});
