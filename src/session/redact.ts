/**
 * Secrets never reach a file or a screen. Every journal record, snapshot, report and log line
 * passes through a Redactor that knows the API key (and anything registered later) and also
 * blanks fields whose names say they hold credentials.
 */
export const REDACTED = '[REDACTED]';

const secretField = /^(api[-_]?key|apikey|authorization|token|bearer|password|secret|client-key-data|id-token|refresh-token)$/i;

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret; short strings are refused, they would blank ordinary words. */
  add(secret: string | undefined): this {
    if (secret && secret.length >= 8) this.secrets.add(secret);
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  text(input: string): string {
    let out = input;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A deep copy with secrets replaced; credential-named fields are blanked whatever they hold. */
  value<T>(input: T): T {
    return this.walk(input, 0) as T;
  }

  private walk(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object' || depth > 64) return v;
    if (Array.isArray(v)) return v.map((x) => this.walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = secretField.test(k) && typeof x === 'string' && x !== '' ? REDACTED : this.walk(x, depth + 1);
    return out;
  }
}
