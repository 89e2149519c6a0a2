/**
 * The profile API client: reads (both dialects), the two mutations, and the read-backs that settle
 * ambiguity. The API key goes only into the `ApiKey` header; it is registered with the redactor and
 * scrubbed from anything the API sends back into an error message.
 *
 * Retries: reads and draft PUTs retry transient failures (5xx, resets, timeouts; 429 after
 * Retry-After) within the policy's attempts and total time. A publish is sent exactly once per
 * `execute`: if its answer is lost, repeating it blindly could publish twice or fail confusingly
 * (a second publish finds no draft). The engine's journaled gateway instead calls the step's
 * `settle` callback, which reads the profile with `isPublished` and only then decides to resend.
 * The same holds for a real Palette's clone, apply and repave approval: sent once, settled by reading.
 *
 * Flavor: the spec's service or a real Palette (flavor.ts), chosen once: from the params, or from
 * the first profile read (`auto`: one profile GET, which both have; no list is needed), or adopted
 * from the session's journal. It decides which lists exist (profile-lists.ts), where "what the
 * cluster runs" comes from, and whether a PUT may change a version object's label.
 */
import { z } from 'zod';
import { systemClock, type Clock } from '../engine/clock.js';
import type { PaletteMutation } from '../engine/mutation.js';
import type { Redactor } from '../session/redact.js';
import type { PaletteApi } from './api.js';
import { InputError } from '../errors.js';
import { ClusterReads } from './cluster-reads.js';
import { deployedFromCluster } from './cluster-normalize.js';
import { textWithout } from './lean-json.js';
import type { ClusterDoc, ClusterEvent, ClusterNotification, RepaveStatus } from './cluster-types.js';
import { compareDraft } from './draft-check.js';
import { assertDraftShape } from './draft-body.js';
import { PaletteApiError, badResponse, type CallInfo } from './errors.js';
import { chooseFlavor, type FlavorChoice, type FlavorSetting, type Versioning } from './flavor.js';
import { describeIssues } from './issues.js';
import { classifyMutation } from './mutations.js';
import { toDeployedProfiles, toPackManifests, toProfileDoc } from './normalize.js';
import { RateLimiter, type Limiter, type RateLimits } from './rate-limit.js';
import { PackRegistry } from './registry.js';
import { RegistryReads } from './registry-client.js';
import { ProfileVariables } from './variables.js';
import { defaultRetryPolicy, type RetryInfo, type RetryPolicy } from './retry.js';
import { ProfileLists } from './profile-lists.js';
import { ClusterProfilesSchema, ManifestEntitiesSchema, ProfileSchema } from './schemas.js';
import { Transport, displayUrl, type Call, type TransportOptions } from './transport.js';
import type { DeployedProfileDoc, DraftBody, DraftCheck, PackManifest, PaletteDialect, ProfileDoc, ProfileSummary, ReadOptions } from './types.js';

export interface PaletteClientOptions {
  /** e.g. `https://api.spectrocloud.com` (a trailing `/v1` is tolerated). */
  baseUrl: string;
  projectUid: string;
  apiKey: string;
  /** The cluster collection segment: `clusters` as in the spec, `spectroclusters` in Palette. */
  clusterCollection: 'clusters' | 'spectroclusters';
  /** Per attempt. */
  timeoutMs: number;
  redactor: Redactor;
  retry?: Partial<RetryPolicy>;
  onRetry?: (info: RetryInfo) => void;
  /** For backoff sleeps and the total-time bound; default the wall clock. */
  clock?: Clock;
  /** Requests per second by path prefix (rate-limit.ts); none when left out. */
  rateLimits?: RateLimits;
  /** One limiter shared with other clients (a fleet: every cluster's calls share one budget); wins over `rateLimits`. */
  limiter?: Limiter;
  /** `palette.flavor` of the params (default `auto`). */
  flavor?: FlavorSetting;
  /** `palette.versioning` of the params (default `clone`). */
  versioning?: Versioning;
  /** With `auto`: a profile to read when the flavor is needed before any profile was read. */
  probeUid?: string;
  /** Most bytes of one answer (default 64 MiB). */
  maxResponseBytes?: number;
  /** Accept a plain http:// base URL on a host that is not this machine. */
  allowInsecureHttp?: boolean;
  /** Every answer that succeeded, as the transport received it (the capture's recorder). */
  onReply?: TransportOptions['onReply'];
  /** Reads shared with the other clients of this process (a fleet's clusters). */
  shared?: TransportOptions['shared'];
}

const seg = (s: string) => encodeURIComponent(s);

export class PaletteClient implements PaletteApi {
  private readonly transport: Transport;
  private readonly baseUrl: string;
  /** The pack registry's reads, memoized for as long as this client lives (one session run). */
  readonly registry: PackRegistry = new PackRegistry(new RegistryReads((call, schema) => this.getJson(call, schema)));
  /** A real Palette's profile variables (variables.ts). */
  readonly variables: ProfileVariables = new ProfileVariables((call, schema) => this.getJson(call, schema));
  private readonly cluster: ClusterReads;
  private readonly lists: ProfileLists;
  /** The label of each profile version object read for a cluster that did not give it (a version's label never changes). */
  private readonly labels = new Map<string, Promise<string>>();
  private chosen: FlavorChoice | undefined;
  private choosing: Promise<FlavorChoice> | undefined;
  /** The dialect of the first profile read: what `auto` decides from. */
  private seenDialect: PaletteDialect | undefined;

  constructor(private readonly opts: PaletteClientOptions) {
    opts.redactor.add(opts.apiKey);
    // The paths below start with /v1; accept a base URL given with it.
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      projectUid: opts.projectUid,
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs,
      redactor: opts.redactor,
      retry: { ...defaultRetryPolicy, ...opts.retry },
      clock: opts.clock ?? systemClock,
      ...(opts.maxResponseBytes !== undefined ? { maxResponseBytes: opts.maxResponseBytes } : {}),
      ...(opts.allowInsecureHttp !== undefined ? { allowInsecureHttp: opts.allowInsecureHttp } : {}),
      ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
      ...(opts.onReply ? { onReply: opts.onReply } : {}),
      ...(opts.shared ? { shared: opts.shared } : {}),
      ...(opts.limiter ? { limiter: opts.limiter } : opts.rateLimits ? { limiter: new RateLimiter(opts.rateLimits) } : {}),
    });
    this.cluster = new ClusterReads((call, schema, without) => this.getJson(call, schema, without), opts.projectUid);
    this.lists = new ProfileLists((call, schema) => this.getJson(call, schema));
  }

  async flavor(opts: ReadOptions = {}): Promise<FlavorChoice> {
    if (this.chosen) return this.chosen;
    // Concurrent callers (reads started together) share one decision and at most one probe read.
    this.choosing ??= this.decideFlavor(opts).finally(() => (this.choosing = undefined));
    return this.choosing;
  }

  private async decideFlavor(opts: ReadOptions): Promise<FlavorChoice> {
    const setting = this.opts.flavor ?? 'auto';
    const versioning = this.opts.versioning ?? 'clone';
    let choice = chooseFlavor(setting, versioning, this.seenDialect);
    if (!choice && this.opts.probeUid) choice = chooseFlavor(setting, versioning, (await this.getProfile(this.opts.probeUid, { ...opts, manifests: false })).dialect);
    if (!choice) {
      throw new InputError('palette.flavor-unknown', "Cannot tell whether the profile API is the spec's service or a real Palette: no profile has been read yet.", {
        hint: 'Set palette.flavor (spec or palette) in the params file.',
      });
    }
    this.chosen ??= choice;
    return this.chosen;
  }

  adoptFlavor(choice: FlavorChoice): void {
    this.chosen = choice;
  }

  /** Sends; answers with the API's JSON answer when it gave one (a clone's `{uid}`), else undefined. */
  async execute(request: PaletteMutation, signal?: AbortSignal): Promise<unknown> {
    const mutation = classifyMutation(request);
    const where = `${request.method} ${request.path}`;
    if (mutation.kind === 'put') {
      assertDraftShape(request.body, where);
      await this.refuseRename(mutation.uid, request.body, where, signal);
    }
    const reply = await this.transport.send({
      method: request.method,
      path: request.path,
      ...(request.body !== undefined ? { body: request.body } : {}),
      // A PUT replaces the whole draft: repeating it is harmless. Anything else (a publish, a clone,
      // an apply, a repave approval) is sent once; an ambiguous failure is settled by reading.
      retry: mutation.kind === 'put',
      ...this.mutationNotFound(mutation),
      ...(signal ? { signal } : {}),
    });
    return answerOf(reply.text);
  }

  /**
   * The last line of defence of the palette flavor: a PUT must keep the version object's own label
   * (another label renames the deployed version in place; the steps clone instead). Nothing is sent.
   */
  private async refuseRename(uid: string, body: DraftBody, where: string, signal?: AbortSignal): Promise<void> {
    if ((await this.flavor(signal ? { signal } : {})).flavor !== 'palette') return;
    const current = await this.getProfile(uid, { manifests: false, ...(signal ? { signal } : {}) });
    if (current.version === body.spec.version) return;
    throw new InputError('palette.unsafe-draft', `Refusing to send the draft for ${where}: it changes spec.version of ${current.name} ${current.version} to ${body.spec.version}, which on Palette renames that version in place (the version the cluster runs, and the way back to it, would be gone).`, {
      hint: 'Nothing was sent. A new version is made by cloning the deployed one (palette.versioning: clone); to edit the deployed version keep its label (in-place).',
      where,
    });
  }

  private mutationNotFound(mutation: ReturnType<typeof classifyMutation>): { notFound?: { message: string; hint: string } } {
    if (mutation.kind === 'put' || mutation.kind === 'publish' || mutation.kind === 'clone') return { notFound: this.profileNotFound(mutation.uid) };
    if (mutation.kind === 'apply' || mutation.kind === 'repave') {
      return { notFound: { message: `Cluster ${mutation.clusterUid} (or a profile version named in the request) was not found in project ${this.opts.projectUid}`, hint: 'Check cluster.uid in the params file and that the new versions exist.' } };
    }
    return {};
  }

  /** Every profile version the project sees: the spec's list, or a real Palette's dashboard metadata. */
  async listProfiles(opts: ReadOptions = {}): Promise<ProfileSummary[]> {
    return (await this.flavor(opts)).flavor === 'palette' ? this.lists.metadata(opts) : this.lists.spec(opts);
  }

  async getProfile(uid: string, opts: ReadOptions & { manifests?: boolean } = {}): Promise<ProfileDoc> {
    const call: Call = { method: 'GET', path: `/v1/clusterprofiles/${seg(uid)}`, retry: true, notFound: this.profileNotFound(uid), ...sig(opts) };
    const { raw, parsed } = await this.getParsed(call, ProfileSchema);
    const doc = toProfileDoc(raw, parsed);
    this.seenDialect ??= doc.dialect;
    if (doc.dialect === 'palette' && opts.manifests !== false) await this.fillManifests(doc, opts);
    return doc;
  }

  async getPackManifests(profileUid: string, packName: string, opts: ReadOptions = {}): Promise<PackManifest[]> {
    const call: Call = {
      method: 'GET',
      path: `/v1/clusterprofiles/${seg(profileUid)}/packs/${seg(packName)}/manifests`,
      retry: true,
      notFound: {
        message: `Pack ${packName} was not found in profile ${profileUid}, or the profile does not exist`,
        hint: 'Check the pack name in the params file (packs.*) against the profile; the manifests endpoint exists only in real Palette.',
      },
      ...sig(opts),
    };
    return toPackManifests(await this.getJson(call, ManifestEntitiesSchema));
  }

  /**
   * What the cluster runs. The spec flavor reads `/v1/{clusters|spectroclusters}/{uid}/profiles`; a
   * real Palette's `/profiles` gives only an integer revision, so the palette flavor reads the
   * cluster object's attached templates, whose `profileVersion` is the label.
   */
  async getClusterProfiles(clusterUid: string, opts: ReadOptions = {}): Promise<DeployedProfileDoc[]> {
    if ((await this.flavor(opts)).flavor === 'palette') return deployedFromCluster(await this.getCluster(clusterUid, opts));
    const { clusterCollection } = this.opts;
    const path = `/v1/${clusterCollection}/${seg(clusterUid)}/profiles`;
    const other = clusterCollection === 'clusters' ? 'spectroclusters' : 'clusters';
    const call: Call = {
      method: 'GET',
      path,
      retry: true,
      notFound: {
        message: `Cluster ${clusterUid} was not found in project ${this.opts.projectUid} at /v1/${clusterCollection}`,
        hint: `Check cluster.uid in the params file. Real Palette names the collection spectroclusters: if the uid is right, try palette.clusterCollection: ${other}.`,
      },
      ...sig(opts),
    };
    return toDeployedProfiles(await this.getJson(call, ClusterProfilesSchema));
  }

  /** The cluster object; an attached version whose `profileVersion` is empty gets its label from the version object itself. */
  async getCluster(clusterUid: string, opts: ReadOptions = {}): Promise<ClusterDoc> {
    const doc = await this.cluster.cluster(clusterUid, opts);
    await Promise.all(
      doc.profiles.filter((p) => p.version === '' && p.uid !== '').map(async (p) => {
        p.version = await this.versionLabel(p.uid, opts);
      }),
    );
    return doc;
  }

  /** `spec.version` of a version object, read once; '' when the object is gone. */
  private versionLabel(uid: string, opts: ReadOptions): Promise<string> {
    let label = this.labels.get(uid);
    if (!label) {
      label = this.getProfile(uid, { ...opts, manifests: false }).then(
        (doc) => doc.publishedVersion ?? doc.version,
        (err: unknown) => {
          if (err instanceof PaletteApiError && err.code === 'palette.not-found') return '';
          throw err;
        },
      );
      this.labels.set(uid, label);
      // A failed read is not remembered: the next cluster read asks again.
      label.catch(() => this.labels.delete(uid));
    }
    return label;
  }

  listClusterEvents(clusterUid: string, opts: ReadOptions & { limit?: number } = {}): Promise<ClusterEvent[]> {
    return this.cluster.events(clusterUid, opts);
  }

  listPendingNotifications(clusterUid: string, opts: ReadOptions = {}): Promise<ClusterNotification[]> {
    return this.cluster.pendingNotifications(clusterUid, opts);
  }

  getRepaveStatus(clusterUid: string, opts: ReadOptions = {}): Promise<RepaveStatus> {
    return this.cluster.repave(clusterUid, opts);
  }

  /**
   * The version `version` of the profile named `name`, if it exists: first in `near`'s
   * `spec.versions` (a real Palette lists every version of a profile there, with its uid), then in
   * a list by name and version: a real Palette's dashboard list filtered by name (paged), or the
   * spec's profile list.
   */
  async findProfileVersion(name: string, version: string, opts: ReadOptions & { near?: ProfileDoc } = {}): Promise<ProfileSummary | undefined> {
    const near = opts.near;
    if (near && near.name === name && near.version === version) return { uid: near.uid, name, version };
    const ref = near?.name === name ? near.versionRefs.find((v) => v.version === version && v.uid) : undefined;
    if (ref?.uid) return { uid: ref.uid, name, version };
    const list = (await this.flavor(opts)).flavor === 'palette' ? await this.lists.named(name, opts) : await this.lists.spec(opts);
    return list.find((p) => p.name === name && p.version === version);
  }

  async draftMatches(uid: string, body: DraftBody, opts: ReadOptions = {}): Promise<DraftCheck> {
    const wantsManifests = body.spec.template.packs.some((p) => (p.manifests ?? []).length > 0);
    return compareDraft(await this.getProfile(uid, { ...opts, manifests: wantsManifests }), body);
  }

  async isPublished(uid: string, version: string, opts: ReadOptions = {}): Promise<boolean> {
    const doc = await this.getProfile(uid, { ...opts, manifests: false });
    // A draft under this label is not published yet, even when the label was published before (an in-place edit).
    if (doc.draftVersion === version) return false;
    return doc.publishedVersion === version || doc.versions.includes(version);
  }

  /** Palette's GET gives manifests as references: read their content once per pack that has any. */
  private async fillManifests(doc: ProfileDoc, opts: ReadOptions): Promise<void> {
    const lists = [doc.draftPacks, doc.publishedPacks].filter((l): l is NonNullable<typeof l> => l !== undefined);
    const names = new Set(lists.flatMap((l) => l.filter((p) => p.manifests.some((m) => m.content === undefined)).map((p) => p.name)));
    for (const name of names) {
      const served = await this.getPackManifests(doc.uid, name, opts);
      const find = (m: { name: string; uid?: string }) => served.find((s) => (m.uid !== undefined ? s.uid === m.uid : s.name === m.name));
      for (const pack of doc.draftPacks?.filter((p) => p.name === name) ?? []) {
        for (const m of pack.manifests) {
          const s = find(m);
          const content = s?.draftContent ?? s?.publishedContent;
          if (content !== undefined) m.content = content;
        }
      }
      for (const pack of doc.publishedPacks?.filter((p) => p.name === name) ?? []) {
        for (const m of pack.manifests) {
          const s = find(m);
          if (s?.publishedContent !== undefined) m.content = s.publishedContent;
        }
      }
    }
  }

  private profileNotFound(uid: string) {
    return {
      message: `Profile ${uid} was not found in project ${this.opts.projectUid}`,
      hint: 'Check profiles.addon.uid / profiles.infra.uid and palette.projectUid in the params file (uids are in the Palette UI under Profiles).',
    };
  }

  private async getJson<S extends z.ZodType>(call: Call, schema: S, without?: string): Promise<z.output<S>> {
    return (await this.getParsed(call, schema, without)).parsed;
  }

  /** Sends, parses JSON and validates; a misfit names the field, its path and the call. `without`: a key whose string values are not read (lean-json.ts). */
  private async getParsed<S extends z.ZodType>(call: Call, schema: S, without?: string): Promise<{ raw: Record<string, unknown>; parsed: z.output<S> }> {
    const reply = await this.transport.send(call);
    const info: CallInfo = { method: call.method, path: call.path, baseUrl: displayUrl(this.baseUrl), projectUid: this.opts.projectUid, timeoutMs: this.opts.timeoutMs, mutation: false };
    let raw: unknown;
    try {
      raw = without ? JSON.parse(textWithout(reply, without)) : reply.json ? reply.json() : JSON.parse(reply.text);
    } catch {
      throw badResponse(info, `the answer is not JSON (${this.transport.shown(reply.text.trim(), 80) || 'empty body'})`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw badResponse(info, this.transport.shown(describeIssues(parsed.error.issues), 1_000));
    return { raw: raw as Record<string, unknown>, parsed: parsed.data };
  }
}

const sig = (opts: ReadOptions): { signal?: AbortSignal } => (opts.signal ? { signal: opts.signal } : {});

/** A mutation's JSON answer (a clone's `{uid}`); undefined for an empty or unreadable one (the step then settles by reading). */
function answerOf(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
