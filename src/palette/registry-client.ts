/**
 * The pack registry's three reads, over the profile API client's transport (same auth headers,
 * retries, rate limits and error mapping). No caching here: `registry.ts` memoizes.
 */
import type { z } from 'zod';
import { PaletteApiError } from './errors.js';
import { PackSummariesSchema, PackTagEntitySchema, RegistriesMetadataSchema, type PackTagEntityJson } from './registry-schemas.js';
import type { Call } from './transport.js';

/** Sends a GET and validates its JSON answer (the client's own `getJson`). */
export type JsonGet = <S extends z.ZodType>(call: Call, schema: S) => Promise<z.output<S>>;

export interface RegistryPackJson {
  uid: string;
  name: string;
  version: string;
  values: string;
  registryUid: string | undefined;
  layer: string | undefined;
  type: string | undefined;
}

export interface RegistryMeta {
  uid: string;
  name: string | undefined;
}

/** Pages are 50 items at most; a pack name and tag match a handful, so this bound is only a guard. */
const MAX_PAGES = 100;
const seg = (s: string) => encodeURIComponent(s);
const sig = (signal?: AbortSignal): { signal?: AbortSignal } => (signal ? { signal } : {});

export class RegistryReads {
  constructor(private readonly get: JsonGet) {}

  /** `GET /v1/packs?filters=spec.name=<name>ANDspec.version=<tag>` (every page): the versions of that name and tag, in every registry. */
  async findPacks(name: string, tag: string, signal?: AbortSignal): Promise<RegistryPackJson[]> {
    const filters = seg(`spec.name=${name}ANDspec.version=${tag}`);
    const out: RegistryPackJson[] = [];
    let next = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const path = `/v1/packs?filters=${filters}${next ? `&continue=${seg(next)}` : ''}`;
      const list = await this.get({ method: 'GET', path, retry: true, ...sig(signal) }, PackSummariesSchema);
      for (const item of list.items ?? []) {
        const s = item.spec;
        out.push({ uid: item.metadata.uid, name: s.name, version: s.version, values: s.values ?? '', registryUid: s.registryUid ?? undefined, layer: s.layer ?? undefined, type: s.type ?? undefined });
      }
      next = list.listmeta?.continue ?? '';
      if (!next) break;
    }
    return out;
  }

  /** `GET /v1/packs/{name}/registries/{registryUid}?cloudType=all`: every tag of the pack in that registry; undefined on 404. */
  async packTags(name: string, registryUid: string, signal?: AbortSignal): Promise<PackTagEntityJson | undefined> {
    const call: Call = {
      method: 'GET',
      path: `/v1/packs/${seg(name)}/registries/${seg(registryUid)}?cloudType=all`,
      retry: true,
      notFound: { message: `The pack ${name} was not found in the pack registry ${registryUid}`, hint: 'Check the pack name and the registry.' },
      ...sig(signal),
    };
    try {
      return await this.get(call, PackTagEntitySchema);
    } catch (err) {
      if (err instanceof PaletteApiError && err.code === 'palette.not-found') return undefined;
      throw err;
    }
  }

  /** `GET /v1/registries/metadata`: the registries the project can use, for their names. */
  async registries(signal?: AbortSignal): Promise<RegistryMeta[]> {
    const list = await this.get({ method: 'GET', path: '/v1/registries/metadata', retry: true, ...sig(signal) }, RegistriesMetadataSchema);
    return (list.items ?? []).map((r) => ({ uid: r.uid, name: r.name ?? undefined }));
  }
}
