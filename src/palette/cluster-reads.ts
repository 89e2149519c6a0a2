/**
 * The reads a real Palette offers about one cluster: the cluster object (what is attached, how far
 * each pack has got, conditions, repave), its events and notifications (both paged), and the repave
 * status. Used by the client; the paths exist on Palette only, so they always name `spectroclusters`.
 */
import type { z } from 'zod';
import { toClusterDoc, toClusterEvents, toNotifications, toRepaveStatus } from './cluster-normalize.js';
import { EventsSchema, NotificationsSchema, RepaveSchema, SpectroClusterSchema } from './cluster-schemas.js';
import type { ClusterDoc, ClusterEvent, ClusterNotification, RepaveStatus } from './cluster-types.js';
import type { Call } from './transport.js';
import type { ReadOptions } from './types.js';

/** `without`: a key whose string values are left unread (lean-json.ts). */
export type JsonGetter = <S extends z.ZodType>(call: Call, schema: S, without?: string) => Promise<z.output<S>>;

/** Palette pages at 50 at most; an events list longer than this many pages is not read further. */
const MAX_EVENT_PAGES = 20;

const seg = (s: string) => encodeURIComponent(s);
const sig = (opts: ReadOptions): { signal?: AbortSignal } => (opts.signal ? { signal: opts.signal } : {});

export class ClusterReads {
  constructor(
    private readonly getJson: JsonGetter,
    private readonly projectUid: string,
  ) {}

  private notFound(clusterUid: string) {
    return {
      message: `Cluster ${clusterUid} was not found in project ${this.projectUid} at /v1/spectroclusters`,
      hint: 'Check cluster.uid in the params file (the uid is in the Palette UI, on the cluster\'s page).',
    };
  }

  /**
   * `GET /v1/spectroclusters/{uid}`, its attached packs' values left unread: what a step reads of the
   * cluster object is its state and what is attached (names, labels, tags); the values it compares
   * are the profile versions' own.
   */
  async cluster(clusterUid: string, opts: ReadOptions = {}): Promise<ClusterDoc> {
    const call: Call = { method: 'GET', path: `/v1/spectroclusters/${seg(clusterUid)}`, retry: true, notFound: this.notFound(clusterUid), ...sig(opts) };
    return toClusterDoc(await this.getJson(call, SpectroClusterSchema, 'values'));
  }

  /** `GET /v1/events/components/spectrocluster/{uid}`, pages followed until `limit` events; newest first. */
  async events(clusterUid: string, opts: ReadOptions & { limit?: number } = {}): Promise<ClusterEvent[]> {
    const limit = Math.max(1, opts.limit ?? 20);
    const out: ClusterEvent[] = [];
    let next = '';
    for (let page = 0; page < MAX_EVENT_PAGES && out.length < limit; page++) {
      const query = `limit=${Math.min(50, limit)}${next ? `&continue=${seg(next)}` : ''}`;
      const call: Call = { method: 'GET', path: `/v1/events/components/spectrocluster/${seg(clusterUid)}?${query}`, retry: true, notFound: this.notFound(clusterUid), ...sig(opts) };
      const parsed = await this.getJson(call, EventsSchema);
      out.push(...toClusterEvents(parsed));
      next = parsed.listmeta?.continue ?? '';
      if (!next) break;
    }
    return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
  }

  /** `GET /v1/notifications/spectrocluster/{uid}?isDone=false`: the updates waiting to be applied. */
  async pendingNotifications(clusterUid: string, opts: ReadOptions = {}): Promise<ClusterNotification[]> {
    const out: ClusterNotification[] = [];
    let next = '';
    for (let page = 0; page < MAX_EVENT_PAGES; page++) {
      const path = `/v1/notifications/spectrocluster/${seg(clusterUid)}?isDone=false${next ? `&continue=${seg(next)}` : ''}`;
      const parsed = await this.getJson({ method: 'GET', path, retry: true, notFound: this.notFound(clusterUid), ...sig(opts) }, NotificationsSchema);
      out.push(...toNotifications(parsed).filter((n) => !n.isDone));
      next = parsed.listmeta?.continue ?? '';
      if (!next) break;
    }
    return out;
  }

  /** `GET /v1/spectroclusters/{uid}/repave/status`: the state and why Palette wants to rebuild nodes. */
  async repave(clusterUid: string, opts: ReadOptions = {}): Promise<RepaveStatus> {
    const call: Call = { method: 'GET', path: `/v1/spectroclusters/${seg(clusterUid)}/repave/status`, retry: true, notFound: this.notFound(clusterUid), ...sig(opts) };
    return toRepaveStatus(await this.getJson(call, RepaveSchema));
  }
}
