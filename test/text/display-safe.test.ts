import { describe, expect, it } from 'vitest';
import { parseKubeJson } from '../../src/kube/parse-json.js';
import { displaySafe } from '../../src/text/display-safe.js';
import { jsonSafe, sanitizeLines, stripControls } from '../../src/text/sanitize.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('the final writers: no control characters, no line of megabytes', () => {
  it('sanitizeLines keeps lines, cleans and cuts each', () => {
    expect(sanitizeLines('ok\nline two')).toBe('ok\nline two');
    expect(sanitizeLines('a\u001b[2Jb\n\u001b]0;t\u0007c')).toBe('ab\nc');
    const out = sanitizeLines(`short\n${'x'.repeat(10_000)}\nend`, 100);
    expect(out.split('\n')).toHaveLength(3);
    expect(out.split('\n')[1]).toMatch(/^x{100}… \(cut: 10,000 characters in all\)$/);
  });

  it('jsonSafe escapes what JSON.stringify leaves raw, and stays the same JSON', () => {
    const value = { m: 'a\u009b2Jb\u202ec\u007fd\u001be' };
    const line = jsonSafe(JSON.stringify(value));
    expect(line).not.toMatch(CONTROL);
    expect(JSON.parse(line)).toEqual(value);
  });

  it('stripControls keeps newlines and tabs', () => {
    expect(stripControls('a\tb\nc\u0007\u001b[31md\r\ne')).toBe('a\tb\ncd\ne');
  });
});

describe('the TUI state view', () => {
  it('cleans every string, copies only what changed, remembers what it cleaned', () => {
    const clean = { id: 'a', names: ['x', 'y'] };
    const live = { reason: 'boom\u001b[2J', keep: 1 };
    const state = { entries: [clean, { id: 'b', live }] as Array<Record<string, unknown>>, meta: { title: 'T' } };
    const view = displaySafe(state);
    expect(view).not.toBe(state);
    expect(view.entries[0]).toBe(clean);
    expect(view.meta).toBe(state.meta);
    expect(view.entries[1]).toEqual({ id: 'b', live: { reason: 'boom', keep: 1 } });
    expect(live.reason).toBe('boom\u001b[2J'); // the engine's state is untouched
    expect(displaySafe(state)).toBe(view); // memoized: the next render costs nothing
    const nothing = { a: ['b', { c: 'd' }] };
    expect(displaySafe(nothing)).toBe(nothing);
  });
});

describe('JSON from the cluster', () => {
  it('strings with control characters (escaped in the JSON text) are cleaned, keys too', () => {
    const text = JSON.stringify({ metadata: { name: 'vm\u001b]0;x\u0007-1', labels: { 'k\u001b[1m': 'v' } }, status: { conditions: [{ message: 'm\u009b2J\nline2' }] } });
    const obj = parseKubeJson<{ metadata: { name: string; labels: Record<string, string> }; status: { conditions: Array<{ message: string }> } }>(text, '/x');
    expect(obj.metadata.name).toBe('vm-1');
    expect(Object.keys(obj.metadata.labels)).toEqual(['k']);
    expect(obj.status.conditions[0]!.message).toBe('m\nline2');
  });

  it('a clean answer is returned as parsed (no walk)', () => {
    const text = JSON.stringify({ items: [{ a: 'b<c>&d', e: 'é' }] });
    expect(parseKubeJson(text, '/x')).toEqual({ items: [{ a: 'b<c>&d', e: 'é' }] });
  });

  it('not JSON: a clear error', () => {
    expect(() => parseKubeJson('<html>', '/api/v1/pods')).toThrow('The cluster answered /api/v1/pods with something that is not JSON.');
  });
});
