/**
 * The scan that decides whether a cluster's JSON answer needs its strings cleaned (parse-json.ts):
 * every way a control character can be written in JSON text is a hit; ordinary escapes are not.
 */
import { describe, expect, it } from 'vitest';
import { mayHoldControls, parseKubeJson } from '../../src/kube/parse-json.js';

describe('mayHoldControls', () => {
  it.each<[string, string, boolean]>([
    ['plain ASCII', '{"a":"b"}', false],
    ['escaped quotes and backslashes', String.raw`{"a":"say \"hi\" C:\\dir"}`, false],
    ['newline and tab escapes', String.raw`{"a":"x\ny\tz"}`, false],
    ['an escaped backslash before u001b (text, not a control)', String.raw`{"a":"\\u001b"}`, false],
    ['non-ASCII letters', '{"a":"café 東京"}', false],
    ['a lowercase ESC escape', String.raw`{"a":"\u001b[2J"}`, true],
    ['an uppercase ESC escape', String.raw`{"a":"\u001B"}`, true],
    ['NUL', String.raw`{"a":"\u0000"}`, true],
    ['DEL escaped', String.raw`{"a":"\u007F"}`, true],
    ['C1 escaped', String.raw`{"a":"\u009b"}`, true],
    ['a bidi override escaped', String.raw`{"a":"\u202e"}`, true],
    ['an isolate escaped', String.raw`{"a":"\u2066"}`, true],
    ['backspace escape', String.raw`{"a":"x\by"}`, true],
    ['form feed escape', String.raw`{"a":"x\fy"}`, true],
    ['raw DEL', '{"a":"x\u007fy"}', true],
    ['raw C1', '{"a":"x\u009by"}', true],
    ['raw bidi override beside other non-ASCII', '{"a":"é\u202e"}', true],
    ['a backslash as the last character', '{"a":"x"}\\', false],
    ['a harmless unicode escape', String.raw`{"a":"\u00e9"}`, false],
  ])('%s', (_what, text, expected) => {
    expect(mayHoldControls(text)).toBe(expected);
  });

  it('agrees with what parseKubeJson cleans', () => {
    expect(parseKubeJson(String.raw`{"a":"x\u001b[31my"}`, '/x')).toEqual({ a: 'xy' }); // the whole escape sequence goes
    expect(parseKubeJson(String.raw`{"a":"C:\\u001b"}`, '/x')).toEqual({ a: 'C:\\u001b' });
  });
});
