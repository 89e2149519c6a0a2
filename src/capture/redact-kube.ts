/**
 * What a capture never carries from a Kubernetes object: material that can hold credentials, and
 * bulk nothing reads. Secrets themselves are never read (no reader of the product lists them, and
 * the recorder drops one should it ever appear); what is stripped here is secret material that
 * other objects carry by the way:
 * - `kubectl.kubernetes.io/last-applied-configuration` (a whole earlier manifest: a Secret's data
 *   when one was applied with kubectl), and annotations whose names say credential;
 * - container environment values (`env[].value`; `valueFrom` references stay: they name, not hold);
 * - cloud-init user and network data of VMs (passwords, SSH keys);
 * - command-line arguments such as `--token=...`, `--password=...`;
 * - string fields the redactor blanks by name (`token`, `password`, ...);
 * and for size: `metadata.managedFields` and a node's `status.images` (read by nothing here).
 * `stripKubeObject` returns a stripped deep copy; the recorder strips the copy it parsed itself, in
 * place (a list of 5,000 VMs is not copied twice more). Both tell `tally` what they removed.
 */
import { REDACTED, secretField } from '../session/redact.js';

export type Tally = (what: string) => void;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** A name that says its value is a credential (the last part of an annotation key, a flag). */
export const SECRET_NAME = /(password|passwd|secret|token|api[-_]?key|private[-_]?key|secret[-_]?key|access[-_]?key|credentials?)$/i;
const CLOUD_INIT = new Set(['userData', 'userDataBase64', 'networkData', 'networkDataBase64']);
/** `--token=...`, `--client-secret=...`: a flag whose name says credential, with a value. */
const FLAG = /^(--?([A-Za-z0-9_.-]+)=).+$/;

export const TALLY = {
  managedFields: 'metadata.managedFields (removed: bookkeeping nothing reads)',
  lastApplied: `${LAST_APPLIED} annotations (removed: can hold a whole earlier manifest, Secrets included)`,
  annotation: 'annotations whose names say credential (value redacted)',
  env: 'container environment values (redacted; valueFrom references kept)',
  cloudInit: 'cloud-init user and network data of VMs (redacted)',
  field: 'fields named token, password, secret, ... (redacted)',
  args: 'command-line arguments carrying a password, token or key (value redacted)',
  images: "nodes' status.images (removed: size; read by nothing here)",
} as const;

function stripMetadata(meta: Record<string, unknown>, tally: Tally): void {
  if ('managedFields' in meta) {
    delete meta.managedFields;
    tally(TALLY.managedFields);
  }
  const annotations = meta.annotations;
  if (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations)) return;
  const a = annotations as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (key === LAST_APPLIED) {
      delete a[key];
      tally(TALLY.lastApplied);
    } else if (SECRET_NAME.test(key.slice(key.lastIndexOf('/') + 1)) && typeof a[key] === 'string' && a[key] !== '') {
      a[key] = REDACTED;
      tally(TALLY.annotation);
    }
  }
}

function walk(value: unknown, tally: Tally, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > 64) return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, tally, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(o)) {
    if (key === 'env' && Array.isArray(v)) {
      for (const item of v) {
        if (item !== null && typeof item === 'object' && typeof (item as { value?: unknown }).value === 'string' && (item as { value: string }).value !== '') {
          (item as { value: string }).value = REDACTED;
          tally(TALLY.env);
        }
      }
    } else if (CLOUD_INIT.has(key) && typeof v === 'string' && v !== '') {
      o[key] = REDACTED;
      tally(TALLY.cloudInit);
      continue;
    } else if (secretField.test(key) && typeof v === 'string' && v !== '') {
      o[key] = REDACTED;
      tally(TALLY.field);
      continue;
    } else if ((key === 'args' || key === 'command') && Array.isArray(v)) {
      o[key] = v.map((arg) => {
        if (typeof arg !== 'string') return arg;
        const m = FLAG.exec(arg);
        if (!m || !SECRET_NAME.test(m[2]!)) return arg;
        tally(TALLY.args);
        return `${m[1]}${REDACTED}`;
      });
      continue;
    }
    walk(v, tally, depth + 1);
  }
}

/** Strips one object of `resource` (the plural: `nodes`, `pods`) in place: for an object no one else holds. */
export function stripKubeObjectInPlace<T>(obj: T, resource: string, tally: Tally): T {
  if (obj === null || typeof obj !== 'object') return obj;
  const o = obj as Record<string, unknown>;
  if (o.metadata !== null && typeof o.metadata === 'object') stripMetadata(o.metadata as Record<string, unknown>, tally);
  if (resource === 'nodes' && o.status !== null && typeof o.status === 'object' && 'images' in (o.status as object)) {
    delete (o.status as Record<string, unknown>).images;
    tally(TALLY.images);
  }
  walk(o, tally, 0);
  return obj;
}

/** A stripped deep copy of one object of `resource`. */
export function stripKubeObject<T>(obj: T, resource: string, tally: Tally): T {
  return stripKubeObjectInPlace(structuredClone(obj), resource, tally);
}
