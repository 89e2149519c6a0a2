/**
 * The embedded lab for scenario tests: a scenario started in a temp folder on fast simulated time,
 * a publish of one VMO version the way a careful operator's profiles would carry it (new defaults
 * plus the site's customizations), and helpers to read the world.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packStack, type PackDefaults, type VmoVersion } from '../../../../src/lab/data/pack-catalog.js';
import { profileLabel } from '../../../../src/lab/data/profiles.js';
import { customizePack } from '../../../../src/lab/data/site.js';
import { startLab, type LabHandle, type ScenarioName } from '../../../../src/lab/index.js';
import type { LabPack } from '../../../../src/lab/palette/types.js';

export function startScenario(scenario: ScenarioName, speed: number): Promise<LabHandle> {
  return startLab({ scenario, stateDir: mkdtempSync(join(tmpdir(), `up-lab-${scenario}-`)), speed, seed: 11 });
}

const toLabPack = (p: PackDefaults, existing: LabPack | undefined): LabPack => ({
  name: p.name,
  tag: p.tag,
  uid: p.uid,
  registryUid: existing?.registryUid ?? 'registry',
  layer: p.layer,
  type: p.type,
  values: p.values,
  manifests: p.manifests.map((m, i) => ({ uid: existing?.manifests.find((x) => x.name === m.name)?.uid ?? `m${i}`, name: m.name, content: m.content })),
});

/** Publishes both profiles at a VMO version, customizations carried, and tells the world. */
export function publishHop(lab: LabHandle, vmo: VmoVersion): void {
  const stack = packStack(vmo);
  for (const role of ['infra', 'addon'] as const) {
    const uid = lab.profileUids[role];
    const current = lab.profiles.get(uid)?.published?.packs ?? [];
    const packs = (role === 'addon' ? stack.addon : stack.infra).map((p) => toLabPack(customizePack(p), current.find((c) => c.name === p.name)));
    lab.profiles.writeDraft(uid, { version: profileLabel(vmo), packs });
    lab.world.paletteHooks.onPublish?.(lab.profiles.publish(uid));
  }
}

/** Jumps simulated time in steps until `done()`; false if it never held within `maxMs`. */
export function advanceUntil(lab: LabHandle, done: () => boolean, maxMs: number, stepMs = 5000): boolean {
  for (let t = 0; t < maxMs && !done(); t += stepMs) lab.clock.advance(stepMs);
  return done();
}

export const runningVmis = (lab: LabHandle): string[] =>
  lab.store
    .list('virtualmachineinstances')
    .filter((v) => (v.status as { phase?: string }).phase === 'Running')
    .map((v) => `${v.metadata.namespace}/${v.metadata.name}`)
    .sort();

export const isOutdated = (lab: LabHandle, vm: string): boolean => {
  const [ns, name] = vm.split('/');
  return lab.store.get('virtualmachineinstances', ns, name!)?.metadata.labels?.['kubevirt.io/outdatedLauncherImage'] !== undefined;
};

/** Restart PUTs the lab applied, `ns/name` each. */
export const labRestarts = (lab: LabHandle): string[] =>
  lab.audit.entries({ api: 'kube', method: 'PUT', effect: 'applied' }).map((e) => e.path.replace(/^.*\/namespaces\/([^/]+)\/virtualmachines\/([^/]+)\/restart$/, '$1/$2'));

export const labCancels = (lab: LabHandle): string[] =>
  lab.audit.entries({ api: 'kube', method: 'DELETE', effect: 'applied' }).map((e) => e.path.replace(/^.*\/namespaces\/([^/]+)\/virtualmachineinstancemigrations\/([^/]+)$/, '$1/$2'));
