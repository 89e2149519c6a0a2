/**
 * The lab's audit log: every mutating call to either API (time, method, path, status, a digest of
 * the body), so tests can prove exactly what was sent, and rehearsals can prove nothing was.
 * Kept in memory, appended to `<state dir>/audit.ndjson`, served at `GET /_lab/audit`.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';

export interface AuditEntry {
  seq: number;
  time: string;
  api: 'palette' | 'kube';
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  /** sha256 of the request body (hex, first 16), when there was one. */
  bodyDigest?: string;
  /** What the lab did with it: `applied`, `ignored` (spec.packs, fault), `rejected`, `dropped`. */
  effect: 'applied' | 'ignored' | 'rejected' | 'dropped';
  /** A short description, e.g. `publish vmo-core-addon 1.3.0`. */
  note?: string;
}

export const digest = (body: string | Buffer | undefined): string | undefined =>
  body === undefined || body.length === 0 ? undefined : createHash('sha256').update(body).digest('hex').slice(0, 16);

export class AuditLog {
  private readonly list: AuditEntry[] = [];

  constructor(private readonly file?: string) {}

  record(entry: Omit<AuditEntry, 'seq' | 'time'> & { time?: string }): AuditEntry {
    const full: AuditEntry = { seq: this.list.length + 1, time: entry.time ?? new Date().toISOString(), ...entry };
    this.list.push(full);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(full)}\n`, { mode: 0o600 });
    return full;
  }

  entries(filter: Partial<Pick<AuditEntry, 'api' | 'method' | 'effect'>> = {}): AuditEntry[] {
    return this.list.filter((e) => Object.entries(filter).every(([k, v]) => e[k as keyof AuditEntry] === v));
  }

  /** Mutations the lab actually applied (what changed the simulated world). */
  applied(): AuditEntry[] {
    return this.list.filter((e) => e.effect === 'applied');
  }
}
