/** Fixture access for the values tests: the real pack values, authored fixtures, golden files. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { catalogVersions } from '../../src/lab/data/pack-catalog.js';

const here = dirname(fileURLToPath(import.meta.url));
export const ownFixtures = join(here, '..', 'fixtures', 'values');

/** A real Palette pack values document (copied from the shared fixtures, see `real/README.md`). */
export function realValues(name: string): string {
  return readFileSync(join(ownFixtures, 'real', name), 'utf8');
}

export function fixture(name: string): string {
  return readFileSync(join(ownFixtures, name), 'utf8');
}

/** Compares with a golden file; `UPDATE_GOLDEN=1` writes it (review the diff before committing). */
export function expectGolden(name: string, actual: string): void {
  const file = join(ownFixtures, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  expect(existsSync(file), `golden file ${name} is missing; run the test with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Lines of `after` that are not lines of `before`, and the reverse (a multiset line diff). */
export function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (text: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const line of text.split('\n')) m.set(line, (m.get(line) ?? 0) + 1);
    return m;
  };
  const b = count(before);
  const a = count(after);
  const diff = (x: Map<string, number>, y: Map<string, number>): string[] =>
    [...x].flatMap(([line, n]) => Array<string>(Math.max(0, n - (y.get(line) ?? 0))).fill(line));
  return { added: diff(a, b), removed: diff(b, a) };
}

/** The runbook loader's `${params.x}` rule: a whole scalar takes the param's value and type; inside text, its text. */
export function substituteParams(value: unknown, params: Record<string, unknown>): unknown {
  const lookup = (ref: string): unknown => ref.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], params);
  if (typeof value === 'string') {
    const whole = /^\$\{params\.([^}]+)\}$/.exec(value);
    if (whole) return lookup(whole[1] as string);
    return value.replace(/\$\{params\.([^}]+)\}/g, (_, ref: string) => String(lookup(ref)));
  }
  if (Array.isArray(value)) return value.map((v) => substituteParams(v, params));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteParams(v, params)]));
  return value;
}

/**
 * Every real pack values document the project holds, by name: the shared fixtures copied here and
 * every pack version the lab's registry serves (built from the real documents: version strings
 * replaced, keys a release added or moved), in catalog order.
 */
export function realPackTexts(): Array<{ name: string; text: string }> {
  const real = readdirSync(join(ownFixtures, 'real'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ name: f, text: realValues(f) }));
  return [...real, ...catalogVersions().map((p) => ({ name: `${p.name} ${p.tag} (lab)`, text: p.values }))];
}
