/**
 * The runbook and params files are read by the YAML scanner when they are in its forms; what a
 * command then knows of them is what the yaml package's reading gave: the same value, and for every
 * place in the file the same line and column (validation errors point there). The package still
 * reads the rest, and words every syntax error. `parseYamlValue` answers as `yaml.parse` does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseYaml, positionOf, type PathKey } from '../../src/engine/yaml-source.js';
import { parseYamlValue } from '../../src/io/yaml-value.js';
import { scanYaml } from '../../src/io/yaml-scan.js';

/** Every path to a value of a plain tree, the root first. */
function paths(v: unknown, at: PathKey[] = []): PathKey[][] {
  const out: PathKey[][] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

const files = ['runbooks/vmo-upgrade.yaml', 'params.example.yaml', ...readdirSync('test/fixtures/runbooks').map((f) => `test/fixtures/runbooks/${f}`)];

describe('the runbook and params files read by the scanner', () => {
  it.each(files)('%s: the same value and the same position for every place in it', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(scanYaml(text), 'the scanner reads it (else this proves nothing)').toBeDefined();
    const fast = parseYaml(text, file, 'runbook');
    const full = parseYaml(text, file, 'runbook', { full: true });
    expect(fast.value).toEqual(full.value);
    const all = paths(full.value);
    expect(all.length).toBeGreaterThan(20);
    // Missing places too: a validation error about a key that is not there points at its parent.
    for (const p of [...all, ...all.slice(0, 50).map((x) => [...x, 'missing-key'])]) expect(positionOf(fast, p), JSON.stringify(p)).toEqual(positionOf(full, p));
  });

  it('leaves to the package what the scanner does not read, with the same error', () => {
    for (const text of ['a: 1\na: 2\n', 'a: [1,\n', 'x: &a 1\ny: *a\n', '', '# only a comment\n', 'a: 1\n---\nb: 2\n']) {
      const read = (full: boolean) => {
        try {
          return parseYaml(text, 'f.yaml', 'params file', { full }).value;
        } catch (err) {
          return (err as Error).message;
        }
      };
      expect(read(false)).toEqual(read(true));
    }
  });
});

describe('parseYamlValue', () => {
  it.each([
    ['a kubeconfig', 'apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTg==\n    server: https://127.0.0.1:6443\n  name: lab\ncontexts:\n- context:\n    cluster: lab\n    user: lab\n  name: lab\ncurrent-context: lab\nkind: Config\npreferences: {}\nusers:\n- name: lab\n  user:\n    token: abc\n'],
    ['a repeated key (the last one stands)', 'a: 1\na: 2\n'],
    ['an empty text', ''],
    ['a comment', '# nothing\n'],
    ['an alias', 'x: &a [1]\ny: *a\n'],
    ['a flow root', '{a: 1}\n'],
  ])('answers %s as yaml.parse does', (_, text) => expect(parseYamlValue(text)).toEqual(parse(text, { uniqueKeys: false })));

  it.each([
    ['several documents', 'a: 1\n---\nb: 2\n'],
    ['broken YAML', 'a: [1,\n'],
  ])('throws for %s as yaml.parse does', (_, text) => {
    expect(() => parse(text, { uniqueKeys: false })).toThrow();
    expect(() => parseYamlValue(text)).toThrow();
  });
});
