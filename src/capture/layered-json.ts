/**
 * The capture's JSON as a person reads it: the structure indented, and each Kubernetes object or API
 * answer compact on a line of its own (pre-serialized once, when it was recorded). `less` and `grep`
 * show one object per line; `jq` reads it like any JSON. Pure.
 */

/** A value already serialized: written as is. */
export class RawJson {
  constructor(readonly json: string) {}
}

function write(value: unknown, indent: string, out: string[]): void {
  if (value instanceof RawJson) {
    out.push(value.json);
    return;
  }
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value) ?? 'null');
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push('[]');
    out.push('[\n');
    value.forEach((v, i) => {
      out.push(inner);
      write(v, inner, out);
      out.push(i < value.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}]`);
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return void out.push('{}');
  out.push('{\n');
  entries.forEach(([k, v], i) => {
    out.push(`${inner}${JSON.stringify(k)}: `);
    write(v, inner, out);
    out.push(i < entries.length - 1 ? ',\n' : '\n');
  });
  out.push(`${indent}}`);
}

export function layeredJson(value: unknown): string {
  const out: string[] = [];
  write(value, '', out);
  out.push('\n');
  return out.join('');
}
