import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/text/sanitize.js';

describe('sanitizeText', () => {
  it.each([
    ['clears the screen', 'bad\u001b[2J\u001b[Hthing', 'badthing'],
    ['retitles the terminal (OSC with BEL)', '\u001b]0;owned\u0007ok', 'ok'],
    ['retitles the terminal (OSC with ST)', '\u001b]2;owned\u001b\\ok', 'ok'],
    ['colours', '\u001b[31mred\u001b[0m', 'red'],
    ['8-bit CSI', 'a\u009b2Jb', 'ab'],
    ['bell and backspace', 'a\u0007b\u0008c', 'abc'],
    ['carriage return overwriting a line', 'fine\rEVIL', 'fine EVIL'],
    ['bidi override', 'abc\u202edef', 'abcdef'],
    ['newlines folded', 'one\ntwo\n\nthree', 'one two three'],
    ['plain text untouched', 'Cluster profile \u2018x\u2019 not found: ünïcode ok', 'Cluster profile \u2018x\u2019 not found: ünïcode ok'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it('keeps newlines when asked, still without control characters', () => {
    expect(sanitizeText('a\u001b[2Kb\nc\r\nd', { multiline: true })).toBe('ab\nc\nd');
  });

  it('cuts a huge message and says how long it was', () => {
    const huge = 'x'.repeat(5_000_000);
    const out = sanitizeText(huge, { max: 100 });
    expect(out.startsWith('x'.repeat(100))).toBe(true);
    expect(out).toContain('5,000,000 characters in all');
    expect(out.length).toBeLessThan(160);
  });
});
