/**
 * The pack registry as the default source of every pack version's defaults (the spec's "new
 * reference defaults", 9.1.5) and of the versions that exist. Each (pack, registry) tag list and
 * each (pack, tag, registry) document is read once per session, however many steps and hops ask:
 * the promises are kept (failed ones are forgotten, so a later attempt reads again). Reads run a
 * few at a time; the transport's rate limiter spaces them out.
 *
 * A registry that lacks a pack or a tag is bad input (exit 2) naming pack, tag and registry; one
 * that cannot be reached keeps the transport's environment error (exit 4) with the registry named.
 */
import { EnvironmentError, InputError, PilotError } from '../errors.js';
import { limiter } from '../io/concurrency.js';
import type { RegistryMeta, RegistryReads } from './registry-client.js';

export interface RegistryPack {
  name: string;
  tag: string;
  registryUid: string;
  /** The pack version's uid in the registry. */
  uid?: string;
  values: string;
  layer?: string;
  type?: string;
}

/** What the plan and customization steps read from a registry (tests give a fake). */
export interface PackRegistryApi {
  /** Every tag of `pack` in the registry (`4.6.3`, `4.6.x`, ...), as the registry lists them. */
  tags(pack: string, registryUid: string, signal?: AbortSignal): Promise<string[]>;
  /** The pack version's default values; an InputError when the registry has no such tag. */
  values(pack: string, tag: string, registryUid: string, signal?: AbortSignal): Promise<RegistryPack>;
  /** `registry "Palette Registry" (uid)`, or `registry uid` when its name cannot be read. */
  label(registryUid: string, signal?: AbortSignal): Promise<string>;
}

/** Reads in flight at once: enough to overlap round trips, few enough to stay polite. */
export const registryConcurrency = 4;

const fallbackHint = 'A site that cannot reach a registry gives the defaults another way: `references:` (reference profiles) or `valuesDir:` in the params file.';

/** The registry lacks a pack's tag: bad input (a target, hop or moveWith tag that does not exist), exit 2. */
export function missingTagError(pack: string, tag: string, registry: string, known?: readonly string[], role?: string): InputError {
  const sorted = [...(known ?? [])].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const near = sorted.length ? ` It holds ${pack} ${sorted.slice(-8).join(', ')}.` : '';
  return new InputError('registry.missing-tag', `The pack ${registry} has no ${pack} ${tag}${role ? ` (${role})` : ''}.${near}`, {
    hint: `Choose a tag the registry holds (params target, hops or moveWith), or check that the profile's ${pack} entry names the right registry. ${fallbackHint}`,
  });
}

export class PackRegistry implements PackRegistryApi {
  private readonly tagLists = new Map<string, Promise<string[]>>();
  private readonly packs = new Map<string, Promise<RegistryPack>>();
  private metadata: Promise<RegistryMeta[]> | undefined;
  private readonly run = limiter(registryConcurrency);
  /** Requests sent, by read (figures for the benchmark and the tests). */
  readonly reads = { tags: 0, values: 0, metadata: 0 };

  constructor(private readonly api: RegistryReads) {}

  tags(pack: string, registryUid: string, signal?: AbortSignal): Promise<string[]> {
    return this.memo(this.tagLists, `${pack}@${registryUid}`, async () => {
      this.reads.tags++;
      const entity = await this.run(() => this.api.packTags(pack, registryUid, signal)).catch((err: unknown) => this.unreachable(err, `the tags of ${pack}`, registryUid, signal));
      const tags = (entity?.tags ?? []).map((t) => t.tag);
      if (tags.length === 0) {
        throw new InputError('registry.missing-pack', `The pack ${await this.label(registryUid, signal)} has no pack ${pack}.`, {
          hint: `Check the pack name (params packs.* / moveWith) and the registry the profile's ${pack} entry names. ${fallbackHint}`,
        });
      }
      // The tag list carries each tag's values too: keep them, so those tags need no read of their own.
      const valuesByUid = new Map((entity?.packValues ?? []).flatMap((v) => (v.packUid && typeof v.values === 'string' ? [[v.packUid, v.values] as const] : [])));
      for (const t of entity?.tags ?? []) {
        const values = t.packUid ? valuesByUid.get(t.packUid) : undefined;
        const key = `${pack}@${t.tag}@${registryUid}`;
        if (values !== undefined && !this.packs.has(key)) {
          this.packs.set(key, Promise.resolve({ name: pack, tag: t.tag, registryUid, ...(t.packUid ? { uid: t.packUid } : {}), values, ...(entity?.layer ? { layer: entity.layer } : {}) }));
        }
      }
      return tags;
    });
  }

  values(pack: string, tag: string, registryUid: string, signal?: AbortSignal): Promise<RegistryPack> {
    return this.memo(this.packs, `${pack}@${tag}@${registryUid}`, async () => {
      this.reads.values++;
      const found = await this.run(() => this.api.findPacks(pack, tag, signal)).catch((err: unknown) => this.unreachable(err, `${pack} ${tag}`, registryUid, signal));
      // The filters match every registry that holds the pack: the deployed pack's registry decides.
      const hit = found.find((p) => p.name === pack && p.version === tag && p.registryUid === registryUid);
      if (!hit) throw await this.missingTag(pack, tag, registryUid, signal);
      return { name: pack, tag, registryUid, uid: hit.uid, values: hit.values, ...(hit.layer ? { layer: hit.layer } : {}), ...(hit.type ? { type: hit.type } : {}) };
    });
  }

  async label(registryUid: string, signal?: AbortSignal): Promise<string> {
    if (!this.metadata) {
      this.reads.metadata++;
      this.metadata = this.run(() => this.api.registries(signal));
      // A registry's name is a courtesy: without the right to list registries, the uid does.
      this.metadata.catch(() => undefined);
    }
    const name = await this.metadata.then((list) => list.find((r) => r.uid === registryUid)?.name).catch(() => undefined);
    return name ? `registry "${name}" (${registryUid})` : `registry ${registryUid}`;
  }

  private async missingTag(pack: string, tag: string, registryUid: string, signal?: AbortSignal): Promise<InputError> {
    const known = await this.tagLists.get(`${pack}@${registryUid}`)?.catch(() => undefined);
    return missingTagError(pack, tag, await this.label(registryUid, signal), known);
  }

  /** A failed read is the environment's (exit 4); the message says which registry read it was. */
  private async unreachable(err: unknown, what: string, registryUid: string, signal?: AbortSignal): Promise<never> {
    if (err instanceof EnvironmentError) {
      // Only a name already read: asking an unreachable API for it would only add another wait.
      const registry = this.metadata ? await this.label(registryUid, signal) : `registry ${registryUid}`;
      throw new EnvironmentError(err.code, `Cannot read ${what} from the pack ${registry}: ${err.message}`, {
        hint: `${err.hint ?? ''} ${fallbackHint}`.trim(),
        ...(err.where ? { where: err.where } : {}),
      });
    }
    throw err instanceof PilotError || err instanceof Error ? err : new Error(String(err));
  }

  private memo<T>(map: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
    let p = map.get(key);
    if (!p) {
      p = read();
      map.set(key, p);
      p.catch(() => {
        if (map.get(key) === p) map.delete(key);
      });
    }
    return p;
  }
}

/** The registry behind a client, when it has one (a rehearsal proxy passes it through). */
export function registryApi(palette: object): PackRegistryApi | undefined {
  const r = (palette as { registry?: unknown }).registry;
  return r !== null && typeof r === 'object' && typeof (r as PackRegistryApi).values === 'function' ? (r as PackRegistryApi) : undefined;
}
