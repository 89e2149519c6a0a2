/**
 * The lab's scenarios by name, each with one line saying what it plays: the one list that
 * `lab --help`, the scenario picker, shell completion and the option parser read (each scenario's
 * full summary, for lab.json and the first screen, is in its own module). Loads nothing else, so
 * help and completion do not load the lab.
 */

export const scenarioCatalog = [
  { name: 'healthy', line: 'VMO 4.4.10 to 4.6.3 in two one-minor hops; every running VM live-migrates' },
  { name: 'skip-minor', line: 'A minor was skipped: failed and hanging migrations; recover by cancelling and restarting' },
  { name: 'lost-customizations', line: 'New defaults that would lose all twelve site customizations if published as they are' },
  { name: 'degraded', line: 'An unhealthy cluster (NotReady node, storage Degraded, crash loop, leaked address): the health gate' },
  { name: 'large', line: 'Hundreds of nodes, thousands of VMs, tens of thousands of pods (--vms --nodes --pods)' },
  { name: 'rook-ceph', line: 'The healthy upgrade on Rook-Ceph storage, without ingress or monitoring packs' },
  { name: 'repave', line: 'The hop also moves Kubernetes: every node is rebuilt after the repave approval' },
  { name: 'pack-error', line: "A pack's upgrade fails in the cluster (helm: field is immutable)" },
  { name: 'no-profile-version', line: 'One hop; with --flavor palette the cluster names its profile versions by uid only' },
  { name: 'no-multus', line: 'The healthy upgrade on a cluster without Multus (network attachment definitions answer 404)' },
  { name: 'rook-ceph-no-placement', line: 'VMO 4.9.3 to 4.10.0 through a stepping stone: a moved key, a removed key, a new variable' },
  { name: 'no-converge', line: "A database VM whose migration cannot converge; a VM whose owner allows restarts only at weekend nights" },
  { name: 'tight', line: 'Nodes are rebuilt on well-filled workers: one VM fits on no other node while its node drains' },
] as const;

export type ScenarioName = (typeof scenarioCatalog)[number]['name'];

export const scenarioNames: readonly ScenarioName[] = scenarioCatalog.map((s) => s.name);

/** The scenarios as `lab --help` lists them: a name, then its line. */
export function scenarioLines(): Array<[name: string, line: string]> {
  return scenarioCatalog.map((s) => [s.name, s.line]);
}
