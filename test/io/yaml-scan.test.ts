/**
 * The YAML scanner reads what the yaml package reads, or leaves the text to it: node by node
 * (kinds, values with the package's number formats, styles, the offsets the merge edits at), on
 * every real pack values document, on a table of the forms values are written in, and on random
 * damage to real documents (it must never accept a text the package refuses, nor read one differently).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments, type Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { deepEqual } from '../../src/io/deep-equal.js';
import { parseOptions, scannedToJs } from '../../src/io/yaml-scan-nodes.js';
import { scanYaml, whyNotScanned } from '../../src/io/yaml-scan.js';
import { parseValues, valuesToJs } from '../../src/values/values-document.js';
import { seeded } from '../support/seed.js';
import { realPackTexts } from '../values/helpers.js';
import { firstDifference } from './yaml-scan-compare.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

/** The scanner read `text`, and read it as the package does (nodes and plain values). */
function expectSameReading(text: string): void {
  const scanned = scanYaml(text);
  expect(scanned, `not scanned (${whyNotScanned(text)}): ${JSON.stringify(text)}`).toBeDefined();
  expect(firstDifference(text, scanned!), JSON.stringify(text)).toBeUndefined();
  const full = parseAllDocuments(text, parseOptions) as Document.Parsed[];
  expect(deepEqual(scanned!.map((d) => scannedToJs(d.contents as never)), full.map((d) => d.toJS())), JSON.stringify(text)).toBe(true);
}

describe('the YAML scanner', () => {
  it.each(realPackTexts().map((t) => [t.name, t.text] as const))('reads %s as the yaml package does', (_, text) => expectSameReading(text));

  it.each(['runbooks/vmo-upgrade.yaml', 'params.example.yaml', ...readdirSync('test/fixtures/runbooks').map((f) => `test/fixtures/runbooks/${f}`)])('reads %s (the runbook and params files) as the yaml package does', (file) =>
    expectSameReading(readFileSync(file, 'utf8')),
  );

  it.each([
    ['nulls', lines('a:', 'b: # why', 'c: ~', 'd: null', 'e:', '  - ', '  -', '  - # empty', 'f: Null')],
    ['a list at its key’s column, then the next key', lines('a:', '- x', '- y: 1', '  z: 2', 'b: 3')],
    ['lists of maps, and maps in lists in maps', lines('l:', '  - name: a', '    v: [1, 2]', '  - name: b', '    m:', '      k: v', '    n:', '    - 1')],
    ['keys as written', lines('"quoted key": 1', "'single': 2", 'with space: 3', 'dots.and/slash: 4', 'a:b: 5', '1: int key', 'true: bool key', 'null: null key', '__proto__: 6', 'k  : 7')],
    ['plain scalars with # and : inside', lines('a: b#c', 'url: http://x.example:8080/p?q=1#f', 'b: c # a comment', 'c: -x', 'd: :x', 'e: ?x', 'f: a - b', 'g: x{{ .spectro.system.cluster.uid }}')],
    ['core schema scalars', lines('- 0', '- 0755', '- -12', '- +3', '- 0o17', '- 0x1F', '- 1.50', '- .5', '- 1.', '- 1e3', '- -1.2E-3', '- .inf', '- -.Inf', '- .NaN', '- True', '- FALSE', '- yes', '- off', '- ~', '- 123456789012345678', '- 1_000', '- 0b101', '- 12:30')],
    ['quoted scalars and escapes', lines('a: "x\\ty\\n\\"q\\" \\\\ \\x41\\u00e9\\U0001F600 \\/ \\_ \\N"', "b: 'it''s'", 'c: ""', "d: ''", 'e: "a: b # c"', 'f: "tab\tinside"')],
    ['flow collections', lines('a: []', 'b: {}', 'c: [ "10.0.0.0/8" ]', 'd: [a, "b", 1, [x, y], {k: v}]', 'e: {a: 1, "b": [2], c: {d: e}}', 'f: [a, b, ]', 'g: [http://x:1/y]', 'h: [ a , b ] # c')],
    ['literal blocks', lines('a: |', '  one', '    two', '', '  three', 'b: |-', '  x', '  # not a comment', '', '', 'c: | # header comment', '  y', '# a comment after', 'd: 1')],
    ['a literal block last, without a line break', 'a: |\n  x\n  y'],
    ['folded blocks', lines('a: >', '  one', '  two', '', '  three', '    more-indented', '    again', '  back', '', '', '  last', 'b: >-', '  x', '  y', 'c: >', '', '  after a blank', '\tnot this: 1'.replace('\t', ''), '- x'.replace('- x', 'd: > # c'), '  tab\tinside', '  \tstarts with a tab', '  end')],
    ['a folded block last, without a line break', 'a: >-\n  x\n  y'],
    ['documents', lines('a: 1', '---', 'b: 2', '--- # second', '# only a comment', '---', '---', 'c: 3')],
    ['comments and blank lines everywhere', lines('# head', '', 'a: # c', '  # under', '', '  b: 1 # c', '    # deeper', '  # same', 'c:', '', '  - 1', '', '  # between', '  - 2', '# tail')],
    ['an indented root', lines('  a: 1', '  b:', '    c: 2')],
    ['a list root', lines('- a', '- b: 1', '  c: 2', '-', '- [1]')],
    ['unicode', lines('a: héllo wörld ✓', 'ключ: значение', 'b: "😀"')],
    ['no line break at the end', 'a: 1\nb: "x"'],
    ['comments with anything in them', lines('a: 1 # \t tab, \r CR, \u0001, \u2028', '# \ufeff')],
  ])('reads %s as the yaml package does', (_, text) => expectSameReading(text));

  it.each([
    ['anchors and aliases', lines('a: &x', '  k: 1', 'b: *x')],
    ['a tag', lines('a: !!str 1')],
    ['an explicit key', lines('? a', ': 1')],
    ['a kept block', lines('a: |+', '  x', '')],
    ['an indentation indicator', lines('a: |2', '   x')],
    ['a plain scalar over several lines', lines('a: one', '  two')],
    ['a quoted scalar over several lines', lines('a: "one', '  two"')],
    ['a flow collection over several lines', lines('a: [1,', '  2]')],
    ['a tab as indentation', 'a:\n\tb: 1\n'],
    ['a tab in a value', 'a: x\ty\n'],
    ['CR LF line breaks', 'a: 1\r\nb: 2\r\n'],
    ['a control character in a value', 'a: x\u0001y\n'],
    ['a byte order mark', '\ufeffa: 1\n'],
    ['a repeated key', lines('a: 1', 'b: 2', 'a: 3')],
    ['a repeated key in a big map', lines(...Array.from({ length: 12 }, (_, i) => `k${i}: ${i}`), 'k3: again')],
    ['a mapping in a one-line value', lines('a: b: c')],
    ['a macro not in quotes (a flow map to YAML)', lines('a: {{ .spectro.system.cluster.uid }}')],
    ['a list item starting a list', lines('- - x')],
    ['a root scalar', lines('just text')],
    ['a document end marker', lines('a: 1', '...')],
    ['a directive', lines('%YAML 1.2', '---', 'a: 1')],
    ['bad indentation', lines('a:', '    b: 1', '  c: 2')],
    ['content after a quoted value', lines('a: "x" y')],
  ])('leaves %s to the yaml package', (_, text) => {
    expect(scanYaml(text)).toBeUndefined();
    expect(whyNotScanned(text)).toEqual(expect.any(String));
    // What the operator gets is the package's reading, or its error, exactly as before.
    const read = (full: boolean) => {
      try {
        return valuesToJs(parseValues(text, 'the values', { full }));
      } catch (err) {
        return err instanceof InputError ? `${err.code}: ${err.message}` : err;
      }
    };
    expect(read(false)).toEqual(read(true));
  });

  it('reads an empty text and a comment-only text as no document, as the package does', () => {
    for (const text of ['', '\n\n', '# only\n#comments\n', '   \n']) {
      expect(scanYaml(text)).toEqual([]);
      expect(parseAllDocuments(text, parseOptions)).toHaveLength(0);
    }
  });

  it('never reads damaged real documents differently from the package, nor accepts what it refuses (300 random cases)', () => {
    const texts = realPackTexts().filter((t) => t.text.length < 16_000);
    const snippets = [': ', '#', ' # c', '- ', '"', "'", '|', '|-', '>', '[', ']', '{', '}', '&a ', '*a', '!t ', '---', '...', '\t', '  ', 'key: value', ': x', '?', '%', '@', '\\', '"\\q"', '0x1F', '.inf', '~'];
    let scanned = 0;
    let refused = 0;
    for (let round = 0; round < 300; round++) {
      const rand = seeded(36_000 + round);
      const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
      const lines = pick(texts).text.split('\n');
      for (let edits = 1 + Math.floor(rand() * 3); edits > 0; edits--) {
        const at = Math.floor(rand() * lines.length);
        const line = lines[at] ?? '';
        const roll = rand();
        if (roll < 0.2) lines.splice(at, 1);
        else if (roll < 0.35) lines.splice(at, 0, line);
        else if (roll < 0.5) lines[at] = rand() < 0.5 ? ` ${line}` : line.replace(/^ /, '');
        else {
          const cut = Math.floor(rand() * (line.length + 1));
          lines[at] = line.slice(0, cut) + pick(snippets) + line.slice(cut);
        }
      }
      const text = lines.join('\n');
      const docs = scanYaml(text);
      const full = parseAllDocuments(text, parseOptions) as Document.Parsed[];
      const bad = !Array.isArray(full) || full.some((d) => d.errors.length > 0);
      if (docs === undefined) {
        refused++;
        continue;
      }
      expect(bad, `round ${round}: the package refuses this text, the scanner read it:\n${text}`).toBe(false);
      expect(firstDifference(text, docs), `round ${round}`).toBeUndefined();
      scanned++;
    }
    // Both kinds of case happen: damage the scanner reads (and reads right), and damage it leaves.
    expect(scanned).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });
});
