/**
 * Equality as Helm sees values: types matter (`"20"` is not `20`, `"true"` is not `true`), map key
 * order does not, list order does. Over plain data (what a YAML or JSON parser gives).
 */

export function scalarEqual(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (scalarEqual(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}
