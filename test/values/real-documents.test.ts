/**
 * The diff and merge on real Palette pack values: the VM orchestration pack from KubeVirt v1.2.0
 * (4-space indentation) to v1.4.0 (2-space), MetalLB and Cilium.
 */
import { describe, expect, it } from 'vitest';
import { decide, type Decisions } from '../../src/values/decide.js';
import { diffValues, type DiffEntry, type ValuesDiff } from '../../src/values/diff.js';
import { mergeValues } from '../../src/values/merge.js';
import { parsePath } from '../../src/values/path.js';
import { evaluateRule } from '../../src/values/rules.js';
import { parseValues } from '../../src/values/values-document.js';
import { changedLines, expectGolden, fixture, realValues } from './helpers.js';

const vmo120 = realValues('virtual-machine-orchestrator.kubevirt-v1.2.0.values.yaml');
const vmo140 = realValues('virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml');
const vmoDeployed = fixture('vmo-kubevirt-v1.2.0.deployed.yaml');

/** Paths with an `image`, `images` or `tag` key: they follow the pack version. */
function isImagePath(path: string): boolean {
  return parsePath(path).segments.some((s) => s.kind === 'key' && ['image', 'images', 'tag'].includes(s.key));
}

function byLabel(diff: ValuesDiff, label: DiffEntry['label']): string[] {
  return diff.entries.filter((e) => e.label === label).map((e) => e.path);
}

const vmo = 'charts.virtual-machine-orchestrator';

describe('VM orchestration pack, KubeVirt v1.2.0 to v1.4.0', () => {
  it.each([
    ['2-way, the site values as deployed', () => diffValues({ deployed: vmoDeployed, newDefaults: vmo140 })],
    ['3-way, the site values as deployed', () => diffValues({ deployed: vmoDeployed, oldDefaults: vmo120, newDefaults: vmo140 })],
    ['2-way, the plain v1.2.0 defaults', () => diffValues({ deployed: vmo120, newDefaults: vmo140 })],
    ['3-way, the plain v1.2.0 defaults', () => diffValues({ deployed: vmo120, oldDefaults: vmo120, newDefaults: vmo140 })],
  ])('ignores every image and tag difference (%s)', (_, run) => {
    const diff = run();
    const imagePaths = diff.entries.filter((e) => isImagePath(e.path));
    expect(imagePaths.length).toBeGreaterThanOrEqual(9);
    expect(imagePaths.filter((e) => e.label !== 'ignored')).toEqual([]);
    expect(diff.entries.filter((e) => e.label === 'ignored' && !isImagePath(e.path))).toEqual([]);
    expect(byLabel(diff, 'ignored')).toEqual(
      expect.arrayContaining([
        'pack.content.images',
        `${vmo}.image`,
        `${vmo}.kubevirt.image`,
        `${vmo}.cdi.image`,
        `${vmo}.multus.image`,
        `${vmo}.multus.cleanup.image`,
        `${vmo}.multus.cleanup.tag`,
        `${vmo}.descheduler.image`,
        `${vmo}.snapshot-controller.webhook.image`,
      ]),
    );
  });

  it('labels an untouched site (deployed = old defaults) as new defaults only', () => {
    const diff = diffValues({ deployed: vmo120, oldDefaults: vmo120, newDefaults: vmo140 });
    expect(diff.counts.carried + diff.counts.conflict + diff.counts.candidate).toBe(0);
    expect(diff.counts.newDefault).toBe(46);
    expect(byLabel(diff, 'newDefault')).toEqual(
      expect.arrayContaining([
        'pack["spectrocloud.com/install-priority"]',
        `${vmo}.kubevirt.kubevirtResource.additionalFeatureGates`,
        `${vmo}.kubevirt.service.type`,
        `${vmo}.kubevirt.kubevirtResource.config.additionalConfig.migrations`,
        `${vmo}.descheduler.deschedulerPolicy.profiles[name="default"].pluginConfig[name="LowNodeUtilization"].args.targetThresholds.cpu`,
      ]),
    );
  });

  it('finds the site customizations, and what the new version changed under them', () => {
    const diff = diffValues({ deployed: vmoDeployed, oldDefaults: vmo120, newDefaults: vmo140 });
    expect(byLabel(diff, 'carried')).toEqual([
      `${vmo}.appConfig.clusterInfo.consoleBaseAddress`,
      `${vmo}.sampleTemplates.ubuntu2204`,
      `${vmo}.vmEnabledNamespaces`,
      `${vmo}.kubevirt.kubevirtResource.config.evictionStrategy`,
      `${vmo}.kubevirt.kubevirtResource.customizeComponents`,
      `${vmo}.descheduler.deschedulerPolicy.profiles[name="default"].pluginConfig[name="RemoveFailedPods"]`,
      `${vmo}.descheduler.deschedulerPolicy.profiles[name="default"].pluginConfig[name="LowNodeUtilization"].args.thresholds.cpu`,
      `${vmo}.grafana`,
    ]);
    expect(byLabel(diff, 'conflict')).toEqual([
      `${vmo}.vlanFiltering.env.bridgeIF`,
      `${vmo}.kubevirt.service.type`,
      `${vmo}.kubevirt.kubevirtResource.additionalFeatureGates`,
    ]);
    const gates = diff.entries.find((e) => e.path.endsWith('additionalFeatureGates'));
    expect(gates?.note).toBe('the site added "SMM"; the new version added "VolumesUpdateStrategy", "VolumeMigration", "CPUManager"');
    expect(gates?.suggestion).toEqual([...(gates?.newDefault as string[]), 'SMM']);
    expect(diff.entries.find((e) => e.path === `${vmo}.grafana`)).toMatchObject({ oldDefault: { namespace: 'monitoring' }, note: 'removed by the site' });
    expect(diff.entries.find((e) => e.path === `${vmo}.vlanFiltering.image`)?.note).toMatch(/site changed this/);
    expect(diff.counts).toEqual({ carried: 8, newDefault: 43, conflict: 3, ignored: 11, candidate: 0 });
  });

  it('merges the decisions into the v1.4.0 document, changing only the carried lines', () => {
    const deployed = parseValues(vmoDeployed);
    const newDefaults = parseValues(vmo140);
    const diff = diffValues({ deployed, oldDefaults: vmo120, newDefaults });
    const gates = diff.entries.find((e) => e.path.endsWith('additionalFeatureGates')) as DiffEntry;
    const decisions: Decisions = {
      [`${vmo}.vlanFiltering.env.bridgeIF`]: 'keepSite',
      [`${vmo}.kubevirt.service.type`]: 'takeNew',
      [gates.path]: { value: gates.suggestion },
    };
    const merged = mergeValues({ newDefaults, carry: decide(diff, decisions), deployed });
    expectGolden('vmo-kubevirt-v1.4.0.merged.golden.yaml', merged);

    expect(changedLines(vmo140, merged)).toEqual({
      added: [
        '        consoleBaseAddress: "https://vmo.{{ .spectro.system.cluster.name }}.example"',
        '      ubuntu2204: true',
        '      - ns-site-vms',
        '        bridgeIF: "br-vm"',
        '          - SMM',
        '          evictionStrategy: "LiveMigrateIfPossible"',
        '          flags:',
        '            api:',
        '              v: "5"',
        '                args:',
        '                    cpu: 30',
        '              - name: RemoveFailedPods',
        '                  reasons:',
        '                    - OutOfcpu',
        '                    - CreateContainerConfigError',
        '                  minPodLifetimeSeconds: 3600',
      ],
      removed: [
        '        consoleBaseAddress: ""',
        '      ubuntu2204: false',
        '    grafana:',
        '      namespace: monitoring',
        '        bridgeIF: ${vmo-network-interface}',
        '          evictionStrategy: "LiveMigrate"',
        '                    cpu: 20',
      ],
    });
    // The new version's macros and profile variables stay as written.
    for (const line of [
      '        pod-security.kubernetes.io/enforce-version: v{{ .spectro.system.kubernetes.version | substr 0 4 }}',
      '                      - "cluster-{{ .spectro.system.cluster.uid }}"',
      '        allowedVlans: ${vm-vlans}',
      '        allowedVlansOnSelf: ${host-vlans}',
    ]) {
      expect(merged.split('\n')).toContain(line);
    }

    const smm = { id: 'smm', title: 'SMM', profile: 'addon' as const, pack: 'virtual-machine-orchestrator', path: `${vmo}.kubevirt.kubevirtResource.additionalFeatureGates`, assert: 'contains' as const, value: 'SMM', reason: 'secure boot' };
    expect(evaluateRule(smm, { values: merged }).status).toBe('pass');
    expect(evaluateRule(smm, { values: vmo140 }).status).toBe('fail');
  });

  it('carries nothing when the operator takes every new default', () => {
    const diff = diffValues({ deployed: vmoDeployed, oldDefaults: vmo120, newDefaults: vmo140 });
    const decisions = Object.fromEntries(diff.entries.map((e) => [e.path, 'takeNew' as const]));
    expect(mergeValues({ newDefaults: vmo140, carry: decide(diff, decisions) })).toBe(vmo140);
  });
});

describe('MetalLB', () => {
  const defaults = realValues('metallb-0.14.9.values.yaml');
  const deployed = defaults
    .replace('            autoAssign: true', '            autoAssign: false')
    .replace('              - ${metallb-ip-pool}\n', '              - ${metallb-ip-pool}\n              - ${metallb-ip-pool-vms}\n');

  it('carries the site settings with profile variables written exactly', () => {
    const diff = diffValues({ deployed, newDefaults: defaults });
    expect(diff.entries.map((e) => `${e.label} ${e.path}`)).toEqual([
      'candidate charts.metallb-full.configuration.ipaddresspools.first-pool.spec.addresses',
      'candidate charts.metallb-full.configuration.ipaddresspools.first-pool.spec.autoAssign',
    ]);
    const merged = mergeValues({ newDefaults: defaults, carry: decide(diff), deployed });
    expectGolden('metallb-0.14.9.merged.golden.yaml', merged);
    expect(changedLines(defaults, merged)).toEqual({
      added: ['              - ${metallb-ip-pool-vms}', '            autoAssign: false'],
      removed: ['            autoAssign: true'],
    });
    expect(merged).toContain(
      '    "metallb-system": "pod-security.kubernetes.io/enforce=privileged,pod-security.kubernetes.io/enforce-version=v{{ .spectro.system.kubernetes.version | substr 0 4 }}" # Do not change this namespace, since CRDs expect the namespace to be metallb-system',
    );
  });
});

describe('Cilium', () => {
  const defaults = realValues('cilium.values.yaml');
  const macro = '"{{ .spectro.pack.kubernetes.pack.podCIDR }}"';
  const literal = '        clusterPoolIPv4PodCIDRList: [ "10.0.0.0/8" ]\n';

  it.each([
    ['flow list', `        clusterPoolIPv4PodCIDRList: [ ${macro} ]\n`, `        clusterPoolIPv4PodCIDRList: [ ${macro} ]\n`],
    ['block list', `        clusterPoolIPv4PodCIDRList:\n          - ${macro}\n`, `        clusterPoolIPv4PodCIDRList:\n          - ${macro}\n`],
  ])('writes the pod CIDR macro over the literal CIDR, as the site wrote it (%s), and changes nothing else', (_, siteText, written) => {
    const deployed = defaults.replace(literal, siteText);
    const diff = diffValues({ deployed, newDefaults: defaults });
    expect(diff.entries.map((e) => `${e.label} ${e.path}`)).toEqual(['candidate charts.cilium.ipam.operator.clusterPoolIPv4PodCIDRList']);
    const merged = mergeValues({ newDefaults: defaults, carry: decide(diff), deployed });
    expect(merged).toBe(defaults.replace(literal, written));
  });
});
