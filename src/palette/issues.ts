/**
 * Turns zod issues into one line an operator can act on: the field's path as it appears in the
 * JSON (`spec.template.packs[2].tag`) and what was expected there.
 */
import type { z } from 'zod';

export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(document)' : out;
}

/** `spec.template.packs[2].tag: expected string, received undefined` (first few issues, `; `-joined). */
export function describeIssues(issues: ReadonlyArray<z.core.$ZodIssue>, max = 3): string {
  const parts = issues.slice(0, max).map((i) => `${issuePath(i.path)}: ${i.message.replace(/^Invalid input: /, '')}`);
  if (issues.length > max) parts.push(`and ${issues.length - max} more`);
  return parts.join('; ');
}
