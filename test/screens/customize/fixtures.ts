/** Small customize outputs for the review's pure modules. */
import type { CustomizeEntry, CustomizeOutput, DraftAddition, PackCustomization } from '../../../src/steps/customize/types.js';

export function pack(name: string, from: string, tag: string, counts: Partial<PackCustomization['counts']> = {}, entries: CustomizeEntry[] = []): PackCustomization {
  return {
    name,
    from,
    tag,
    values: '',
    carried: 0,
    mode: 'threeWay',
    counts: { carried: 0, candidate: 0, newDefault: 0, conflict: 0, ignored: 0, ruleFix: 0, ...counts },
    entries,
    manifestChanges: [],
    sources: { deployed: 'deployed', newDefaults: `${name} ${tag} in the pack registry` },
    deployedValues: '',
  };
}

export function output(hops: Array<{ index: number; profiles: Array<{ role: 'infra' | 'addon'; name: string; packs: PackCustomization[]; additions?: DraftAddition[] }> }>): CustomizeOutput {
  return {
    conflicts: hops.flatMap((h) => h.profiles.flatMap((p) => p.packs)).reduce((n, p) => n + p.counts.conflict, 0),
    ruleFailures: 0,
    notOnSite: 0,
    byHop: hops.map((h) => ({ index: h.index, from: `4.${h.index + 3}.0`, to: `4.${h.index + 4}.0`, profiles: h.profiles.map((p) => ({ role: p.role, name: p.name, packs: p.packs, rules: [], fixes: [], additions: p.additions ?? [] })) })),
  };
}

export const gates = ['LiveMigration', 'HotplugVolumes', 'Snapshot', 'VMExport', 'ExpandDisks', 'HotplugNICs', 'VMLiveUpdateFeatures', 'VMPersistentState', 'Sidecar', 'SMM'];
export const newGates = ['LiveMigration', 'HotplugVolumes', 'Snapshot', 'VMExport', 'ExpandDisks', 'HotplugNICs', 'VMLiveUpdateFeatures', 'VMPersistentState', 'VolumesUpdateStrategy', 'VolumeMigration', 'CPUManager', 'Sidecar'];
export const merged = [...newGates, 'SMM'];

/** The healthy lab's three conflicts and one carried value, as the review gets them. */
export const featureGates: CustomizeEntry = { path: 'charts.virtual-machine-orchestrator.kubevirt.kubevirtResource.additionalFeatureGates', label: 'conflict', deployed: gates, newDefault: newGates, result: merged, suggestion: merged, decision: 'merged', note: 'the site added "SMM"; the new version added "VolumesUpdateStrategy", "VolumeMigration", "CPUManager"' };
export const serviceType: CustomizeEntry = { path: 'charts.virtual-machine-orchestrator.kubevirt.service.type', label: 'newDefault', deployed: 'ClusterIP', newDefault: 'LoadBalancer', result: 'LoadBalancer' };
export const className: CustomizeEntry = { path: 'charts.portworx-generic.storageClass.name', label: 'conflict', deployed: 'px-vm-block', newDefault: 'px-csi-replicated', result: 'px-vm-block', decision: 'keepSite', note: 'changed by the site and in the new version' };
export const ioProfile: CustomizeEntry = { path: 'charts.portworx-generic.storageClass.parameters.io_profile', label: 'conflict', deployed: 'db_remote', newDefault: 'auto', result: 'db_remote', decision: 'keepSite' };
export const podCidr: CustomizeEntry = { path: 'charts.cilium.ipam.operator.clusterPoolIPv4PodCIDRList', label: 'carried', deployed: ['{{ .spectro.system.kubernetes.podCIDR }}'], newDefault: ['10.0.0.0/8'], result: ['{{ .spectro.system.kubernetes.podCIDR }}'] };

/** Two hops as the healthy lab has them (the conflicts in hop 1's orchestration pack and hop 2's storage pack). */
export const healthy = output([
  {
    index: 1,
    profiles: [
      { role: 'infra', name: 'vmo-infra', packs: [pack('cni-cilium-oss', '1.16.6', '1.16.9', { carried: 1, newDefault: 1, ignored: 14 }, [podCidr]), pack('csi-portworx-generic', '3.1.4', '3.1.8', { carried: 10, ignored: 5 })] },
      { role: 'addon', name: 'vmo-core-addon', packs: [pack('nginx', '1.10.1', '1.11.3', { carried: 1, ignored: 5 }), pack('virtual-machine-orchestrator', '4.4.10', '4.5.4', { newDefault: 45, conflict: 1, ignored: 11 }, [serviceType, featureGates])] },
    ],
  },
  {
    index: 2,
    profiles: [
      { role: 'infra', name: 'vmo-infra', packs: [pack('csi-portworx-generic', '3.1.8', '3.2.1', { carried: 8, newDefault: 3, conflict: 2, ignored: 5 }, [className, ioProfile])] },
      { role: 'addon', name: 'vmo-core-addon', packs: [pack('prometheus-operator', '62.3.1', '66.2.2', { newDefault: 2, ignored: 2 })], additions: [{ pack: 'prometheus-operator', path: 'x', value: 1, source: 'other', what: 'sets x', included: false }] },
    ],
  },
]);
