/**
 * The hand-written check of VM instances (src/kube/vmi-phase.ts) against the schema it stands for
 * (VmiPhaseSchema): for every case, the same verdict, the same value, or the same first problem
 * with the same words.
 */
import { describe, expect, it } from 'vitest';
import { VmiPhaseSchema } from '../../src/kube/schemas.js';
import { checkVmiPhase } from '../../src/kube/vmi-phase.js';

const ok = { name: 'vm-1', namespace: 'vms', creationTimestamp: '2026-11-01T00:00:00Z', labels: { 'kubevirt.io/domain': 'vm-1' } };

describe('checkVmiPhase gives what VmiPhaseSchema gives', () => {
  it.each<[string, unknown]>([
    ['a whole VMI (extra fields dropped)', { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { ...ok, uid: 'u', annotations: { a: 'b' } }, spec: { x: 1 }, status: { phase: 'Running', nodeName: 'n1' } }],
    ['a table row’s item', { metadata: ok, status: { phase: 'Scheduling' } }],
    ['no status', { metadata: ok }],
    ['a status without a phase', { metadata: ok, status: {} }],
    ['only a name', { metadata: { name: 'a' } }],
    ['optional fields present as undefined', { metadata: { name: 'a', namespace: undefined, labels: undefined }, status: undefined }],
    ['empty labels', { metadata: { name: 'a', labels: {} } }],
    ['not an object', 5],
    ['null', null],
    ['an array', []],
    ['no metadata', {}],
    ['metadata null', { metadata: null }],
    ['metadata an array', { metadata: [] }],
    ['no name', { metadata: { namespace: 'x' } }],
    ['a number as name', { metadata: { name: 3 } }],
    ['a null namespace (not set)', { metadata: { name: 'a', namespace: null } }],
    ['a null creation time and null labels (not set)', { metadata: { name: 'a', creationTimestamp: null, labels: null } }],
    ['a creation time as a number', { metadata: { name: 'a', creationTimestamp: 1 } }],
    ['labels as a list', { metadata: { name: 'a', labels: ['x'] } }],
    ['labels as text', { metadata: { name: 'a', labels: 'x=y' } }],
    ['a label with a number value', { metadata: { name: 'a', labels: { x: 'y', n: 1 } } }],
    ['a label with a null value', { metadata: { name: 'a', labels: { n: null } } }],
    ['status null (not set)', { metadata: ok, status: null }],
    ['status text', { metadata: ok, status: 'Running' }],
    ['phase a number', { metadata: ok, status: { phase: 2 } }],
    ['phase null (not set)', { metadata: ok, status: { phase: null } }],
    ['name wrong and status wrong: the name first', { metadata: { name: 1 }, status: 3 }],
  ])('%s', (_what, item) => {
    const schema = VmiPhaseSchema.safeParse(item);
    const hand = checkVmiPhase(item);
    expect(hand.ok).toBe(schema.success);
    // toEqual: a key present as undefined (never in JSON) may be kept by one and left out by the other.
    if (hand.ok && schema.success) expect(hand.value).toEqual(schema.data);
    // A null is "not set" on both sides: it never comes out as null.
    if (hand.ok) expect(JSON.stringify(hand.value)).not.toContain('null');
    if (!hand.ok && !schema.success) expect({ path: hand.path, message: hand.message }).toEqual({ path: schema.error.issues[0]!.path, message: schema.error.issues[0]!.message });
  });
});
