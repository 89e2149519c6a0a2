/**
 * A world without servers, for tests over simulated time: the scenario seeded, the Palette side
 * reduced to its store (publish = write a draft, publish it, tell the world), helpers to publish a
 * VMO version's packs the way a careful tool would (new defaults + the site's customizations) or a
 * careless one (plain defaults), and to run simulated time until something holds.
 */
import { packStack, type PackDefaults, type VmoVersion } from '../../../src/lab/data/pack-catalog.js';
import { buildProfiles, profileLabel, type LabProfiles } from '../../../src/lab/data/profiles.js';
import { customizePack, type CustomizationId } from '../../../src/lab/data/site.js';
import { handleDelete } from '../../../src/lab/kube/delete-handler.js';
import { servedType } from '../../../src/lab/kube/kinds.js';
import { ResourceStore } from '../../../src/lab/kube/store.js';
import type { KubeObject } from '../../../src/lab/kube/types.js';
import { ProfileStore } from '../../../src/lab/palette/store.js';
import type { LabPack } from '../../../src/lab/palette/types.js';
import { SimClock } from '../../../src/lab/sim-clock.js';
import { Random } from '../../../src/lab/world/random.js';
import { scenarioSpec, type LabSizes, type ScenarioName } from '../../../src/lab/world/scenarios/index.js';
import { seedSpanMs, seedWorld } from '../../../src/lab/world/seed.js';
import { World } from '../../../src/lab/world/world.js';

export interface PublishOptions {
  without?: ReadonlySet<CustomizationId>;
  plainDefaults?: boolean;
  label?: string;
  /** Last changes to a pack before it is published (e.g. other workload update methods). */
  edit?: (pack: PackDefaults) => PackDefaults;
}

export interface Harness {
  world: World;
  clock: SimClock;
  store: ResourceStore;
  profiles: LabProfiles;
  profileStore: ProfileStore;
  /** Publishes a role's packs for a VMO version: defaults plus the customizations not in `without`. */
  publishVersion(role: 'addon' | 'infra', vmo: VmoVersion, opts?: PublishOptions): void;
  /** Publishes both profiles for a version. */
  publishHop(vmo: VmoVersion, opts?: PublishOptions): void;
  /** Advances simulated time in steps until `done()` or `maxMs` passed; returns whether it held. */
  runUntil(done: () => boolean, maxMs: number, stepMs?: number): boolean;
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(resource: string, opts?: { namespace?: string; labelSelector?: string; fieldSelector?: string }): KubeObject[];
  /** DELETE through the lab's own handler (finalizers honoured, the world told), as kubectl delete would. */
  delete(resource: string, namespace: string | undefined, name: string): number;
  close(): void;
}

/**
 * `start`: where the lab's clock starts (the seed's past included), so two harnesses can run the
 * same lab times; `speed`: how fast its time is paced by the wall (the default, 1, barely moves it:
 * the test advances the clock; a tiny speed holds it entirely until the test sets one).
 */
export function createHarness(scenario: ScenarioName, opts: { seed?: number; sizes?: Partial<LabSizes>; start?: number; speed?: number } = {}): Harness {
  const seed = opts.seed ?? 7;
  const spec = scenarioSpec(scenario, opts.sizes);
  const clock = new SimClock(opts.speed ?? 1, opts.start ?? Date.now() - seedSpanMs);
  const store = new ResourceStore({ now: () => clock.now() });
  const rng = new Random(seed);
  const profiles = buildProfiles({ deployed: spec.deployed, rng, createdAt: opts.start ?? Date.now() - seedSpanMs, ...(spec.history ? { history: spec.history } : {}) });
  const profileStore = new ProfileStore([profiles.addon, profiles.infra, ...profiles.references.flatMap((r) => [r.addon, r.infra])]);
  const world = new World({ clock, store, seed, cluster: { uid: 'c0ffee00c0ffee00c0ffee00', name: 'vmo-prod-east', agentNamespace: 'cluster-c0ffee00c0ffee00c0ffee00' }, deployed: { addon: profiles.addon, infra: profiles.infra } });
  seedWorld(world, spec);
  world.start();

  const toLabPack = (p: PackDefaults, existing: LabPack | undefined): LabPack => ({
    name: p.name,
    tag: p.tag,
    uid: p.uid,
    registryUid: existing?.registryUid ?? profiles.registryUid,
    layer: p.layer,
    type: p.type,
    values: p.values,
    manifests: p.manifests.map((m, i) => ({ uid: existing?.manifests.find((x) => x.name === m.name)?.uid ?? `m${i}`, name: m.name, content: m.content })),
  });

  const h: Harness = {
    world,
    clock,
    store,
    profiles,
    profileStore,
    publishVersion(role, vmo, o = {}) {
      const profile = role === 'addon' ? profiles.addon : profiles.infra;
      const stack = packStack(vmo);
      const packs = (role === 'addon' ? stack.addon : stack.infra).map((p) => (o.plainDefaults ? p : customizePack(p, o.without))).map((p) => (o.edit ? o.edit(p) : p));
      const current = profile.published?.packs ?? [];
      profileStore.writeDraft(profile.uid, { version: o.label ?? profileLabel(vmo), packs: packs.map((p) => toLabPack(p, current.find((c) => c.name === p.name))) });
      world.paletteHooks.onPublish?.(profileStore.publish(profile.uid));
    },
    publishHop(vmo, o = {}) {
      h.publishVersion('infra', vmo, o);
      h.publishVersion('addon', vmo, o);
    },
    runUntil(done, maxMs, stepMs = 5000) {
      for (let t = 0; t < maxMs; t += stepMs) {
        if (done()) return true;
        clock.advance(stepMs);
      }
      return done();
    },
    get: (resource, namespace, name) => store.get(resource, namespace, name),
    list: (resource, o) => store.list(resource, o),
    delete(resource, namespace, name) {
      const type = servedType(resource);
      const target = { type, group: type.group, name, ...(namespace !== undefined ? { namespace } : {}) };
      return handleDelete({ method: 'DELETE', target, query: new URLSearchParams(), accept: undefined, contentType: undefined, body: Buffer.alloc(0) }, { store, hooks: world.kubeHooks }).reply.status;
    },
    close() {
      world.stop();
      clock.stop();
    },
  };
  return h;
}

export const phaseOf = (o: KubeObject | undefined): string => String((o?.status as { phase?: string } | undefined)?.phase ?? '');
