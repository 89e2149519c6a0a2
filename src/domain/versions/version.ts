/**
 * Pack tags read as versions: `1.4.2`, `v1.4.2`, `1.4.2-spectro.1`, `4.6`. The suffix of a Palette
 * pack tag marks a rebuild of that release, so it sorts after the plain release.
 */
export interface Version {
  raw: string;
  major: number;
  minor: number;
  patch: number;
  suffix: string;
}

const re = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+]([0-9A-Za-z.-]+))?$/;

export function parseVersion(tag: string): Version | undefined {
  const m = re.exec(tag.trim());
  if (!m) return undefined;
  return { raw: tag, major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0), suffix: m[4] ?? '' };
}

function compareSuffix(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return -1;
  if (!b) return 1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const c = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || compareSuffix(a.suffix, b.suffix);
}

export const minorOf = (v: Version) => `${v.major}.${v.minor}`;

/** `4.5.x` for a tag of minor 4.5 (the tag itself when it is not a version). */
export function minorText(tag: string): string {
  const v = parseVersion(tag);
  return v ? `${v.major}.${v.minor}.x` : tag;
}

/** The same version however the tag is written (`v4.5.4` and `4.5.4`). */
export const sameVersion = (a: string, b: string): boolean => {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  return va !== undefined && vb !== undefined && compareVersions(va, vb) === 0;
};
