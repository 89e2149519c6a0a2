/** Values as an operator reads them in a table or a message: short, typed, one line. */

export function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'a map';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** JSON-style, so `"true"` (a string) and `true` (a boolean) read differently; long values are cut. */
export function showValue(value: unknown, max = 120): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
