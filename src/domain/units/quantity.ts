/**
 * Kubernetes resource quantities as KubeVirt writes memory and bandwidth (`bandwidthPerMigration:
 * 64Mi` means 64 MiB per second; guest memory `4Gi`): binary and decimal suffixes
 * (k8s.io/apimachinery resource.Quantity). Anything else reads as not set.
 */
const suffixes: Record<string, number> = {
  '': 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
};

export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)(?:[eE](\d+))?\s*(Ki|Mi|Gi|Ti|Pi|m|k|M|G|T|P)?\s*$/.exec(value);
  if (!m) return undefined;
  const base = Number(m[1]) * (m[2] ? 10 ** Number(m[2]) : 1);
  return base * (suffixes[m[3] ?? '']!);
}

export const GiB = 2 ** 30;
export const MiB = 2 ** 20;

/** `512 MiB/s`, `1.2 GiB/s`: a rate an operator reads at a glance. */
export function rateText(bytesPerSecond: number): string {
  if (bytesPerSecond >= GiB) return `${(bytesPerSecond / GiB).toFixed(1)} GiB/s`;
  return `${Math.round(bytesPerSecond / MiB)} MiB/s`;
}

export function memoryText(bytes: number): string {
  const gi = bytes / GiB;
  return gi >= 1 ? `${Number.isInteger(gi) ? gi : gi.toFixed(1)} GiB` : `${Math.round(bytes / MiB)} MiB`;
}
