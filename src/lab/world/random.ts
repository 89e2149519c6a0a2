/**
 * Seeded randomness for the lab: object uids, generated name suffixes, which VMI a failure hits.
 * A seed makes a scenario repeat exactly run to run (tests); the lab picks a random seed otherwise.
 */

/** The alphabet Kubernetes uses for generated name suffixes (no vowels, no look-alikes). */
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[this.int(16)];
    return out;
  }

  /** A version-4 UUID, as Kubernetes uses for `metadata.uid`. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[this.int(4)]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** A `generateName` suffix (`kubevirt-workload-update-` + `x7q2k`). */
  suffix(length = 5): string {
    let out = '';
    for (let i = 0; i < length; i++) out += suffixAlphabet[this.int(suffixAlphabet.length)];
    return out;
  }
}
