/**
 * Secrets never reach a file or a screen. Every journal record, snapshot, report and log line
 * passes through a Redactor that knows the API key (and anything registered later) and also
 * blanks fields whose names say they hold credentials. A secret is also known in the forms a
 * server may echo it in: URL-encoded, and base64 (standard and URL-safe) at any byte alignment,
 * so the key inside a longer base64 string (an encoded `ApiKey: ...` header) is caught too.
 */
export const REDACTED = '[REDACTED]';

/** Shortest encoded form worth redacting (shorter ones would blank ordinary words). */
const MIN_FORM = 8;

/**
 * The base64 text that stands for `secret` wherever it sits in a longer encoded buffer: for each
 * of the three byte alignments, the characters that depend on the secret's bytes alone.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    // Characters mixed with the padding bytes at the start, and with whatever follows at the end.
    const start = pad === 0 ? 0 : pad === 1 ? 2 : 3;
    const whole = Math.floor((pad + bytes.length) / 3) * 4;
    const core = encoded.slice(start, whole);
    if (core.length >= MIN_FORM) out.add(core);
    // Alone (alignment 0), the padded full encoding is what an API would echo.
    if (pad === 0) out.add(encoded);
  }
  for (const form of [...out]) out.add(form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  return [...out].filter((f) => f.length >= MIN_FORM);
}

/** Field names whose string values are credentials, whatever they hold. */
export const secretField = /^(api[-_]?key|apikey|authorization|token|bearer|password|secret|client-key-data|id-token|refresh-token)$/i;

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret (and its encoded forms); short strings are refused, they would blank ordinary words. */
  add(secret: string | undefined): this {
    if (!secret || secret.length < MIN_FORM) return this;
    this.secrets.add(secret);
    const uri = encodeURIComponent(secret);
    if (uri !== secret) this.secrets.add(uri);
    for (const form of base64Forms(secret)) this.secrets.add(form);
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  text(input: string): string {
    let out = input;
    // Longest first: a form that contains another (the padded base64 holds its core) goes whole.
    for (const secret of this.ordered()) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  private sorted: string[] | undefined;
  private ordered(): string[] {
    if (!this.sorted || this.sorted.length !== this.secrets.size) this.sorted = [...this.secrets].sort((a, b) => b.length - a.length);
    return this.sorted;
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
