/**
 * Every size limit on what upgrade-pilot reads, in one place (RELIABILITY.md lists them). Each is
 * far above what a real input needs; its job is to turn a runaway input (a 100 MB params file, a
 * link to /dev/zero, an answer that streams forever) into a clear error instead of a process that
 * eats memory until the machine kills it.
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export const LIMITS = {
  /** A params file: a page of YAML. */
  paramsFile: 1 * MiB,
  /** A runbook: the bundled one is about 20 KiB. */
  runbookFile: 4 * MiB,
  /** A file holding the API key alone. */
  apiKeyFile: 64 * KiB,
  /** A kubeconfig (many clusters with embedded certificates stay well under 1 MiB). */
  kubeconfigFile: 16 * MiB,
  /** A certificate or token file named by a kubeconfig. */
  credentialFile: 1 * MiB,
  /** A pack's default values file in `valuesDir` (real pack values are 10-300 KiB). */
  valuesFile: 16 * MiB,
  /** A session journal (a large recovery writes tens of MB). */
  journal: 1 * GiB,
  /** A session snapshot; a bigger one is ignored (it is a cache: the journal rebuilds it). */
  snapshot: 256 * MiB,
  /** A session lock file (a line of JSON). */
  lockFile: 64 * KiB,
  /** One answer of the profile API, unless `palette.maxResponse` says otherwise. */
  paletteResponse: 64 * MiB,
  /** What one kubectl process may print, unless the runbook's `kubectlMaxOutput` says otherwise. */
  kubectlOutput: 512 * MiB,
  /** kubectl's error output: only its last lines are ever used. */
  kubectlStderr: 1 * MiB,
  /** An answer from a side service (the lab clock). */
  sideResponse: 64 * KiB,
  /** Characters in an API key. */
  apiKeyChars: 4096,
} as const;

/** The cap on a capture's uncompressed size unless `capture --max-size` says otherwise. */
export const CAPTURE_DEFAULT_MAX_BYTES = 256 * MiB;
/** The largest capture cap accepted: a capture is one JSON text, and a JavaScript string holds at most about 512 MiB. */
export const CAPTURE_LIMIT_BYTES = 500 * MiB;
/** The smallest capture cap accepted (a capture's manifest alone is a few KiB). */
export const CAPTURE_MIN_BYTES = 16 * KiB;

/** `1.5 MiB`, `64 KiB`, `12 bytes`. */
export function formatBytes(n: number): string {
  if (n >= GiB) return `${trim(n / GiB)} GiB`;
  if (n >= MiB) return `${trim(n / MiB)} MiB`;
  if (n >= KiB) return `${trim(n / KiB)} KiB`;
  return `${n} byte${n === 1 ? '' : 's'}`;
}

const trim = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

const units: Record<string, number> = { '': 1, b: 1, k: 1000, kb: 1000, kib: KiB, m: 1000 ** 2, mb: 1000 ** 2, mib: MiB, g: 1000 ** 3, gb: 1000 ** 3, gib: GiB };

/** Parses `64MiB`, `512 KB`, `1GiB` or a plain number of bytes; undefined when it is none of these. */
export function parseBytes(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isInteger(input) && input > 0 ? input : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(input);
  if (!m) return undefined;
  const unit = units[m[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}
