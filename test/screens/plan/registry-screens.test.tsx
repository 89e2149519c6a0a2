/** The plan and customization screens for a site planned from the pack registry, with rules that do not apply to it. */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CustomizeScreen } from '../../../src/screens/CustomizeScreen.js';
import { PlanScreen } from '../../../src/screens/PlanScreen.js';
import type { StepScreenProps } from '../../../src/screens/step-screen.js';
import type { CustomizeOutput } from '../../../src/steps/customize/types.js';
import { plain, words } from '../../support/ui.js';
import { planOutput, sessionState, stepWith } from './fixtures.js';

const props = (step: StepScreenProps['step']): StepScreenProps => ({ step, state: sessionState(), isActive: true, rehearsal: false, width: 100, height: 40 });
const registry = { kind: 'registry' as const, registryUid: 'r1', label: 'registry "Palette Registry" (r1)' };

describe('PlanScreen, planned from the pack registry', () => {
  it('says where each version came from, why each pack moves, and which packs stay', () => {
    const out = planOutput();
    out.versionSource = registry.label;
    out.hops[0]!.source = 'the highest 4.5.x tag in registry "Palette Registry" (r1)';
    out.hops[0]!.profiles = [
      {
        role: 'addon',
        uid: 'addon-1',
        name: 'vmo-core-addon',
        fromVersion: '1.4.0',
        toVersion: '1.5.0',
        packs: [
          { name: 'lb-metallb-helm', from: '0.14.8', to: '0.14.9', source: 'moveWith: latest patch' },
          { name: 'virtual-machine-orchestrator', from: '4.4.10', to: '4.5.4', source: "the hop's version" },
        ],
        reference: registry,
        stays: ['nginx 1.10.1'],
      },
    ];
    const ui = render(<PlanScreen {...props(stepWith('plan', { output: out }))} />);
    const frame = words(plain(ui.lastFrame()));
    expect(frame).toContain('Versions from registry "Palette Registry" (r1) Hop 1: 4.4.10 → 4.5.4 deploys KubeVirt v1.3.1 · CDI v1.60.3 · 4.5.4 is the highest 4.5.x tag');
    expect(frame).toContain('vmo-core-addon version 1.4.0 → 1.5.0 (registry defaults)');
    expect(frame).toContain('lb-metallb-helm 0.14.8 → 0.14.9 moveWith: latest patch');
    expect(frame).toContain('stay: nginx 1.10.1');
    ui.unmount();
  });
});

describe('CustomizeScreen, rules that do not apply', () => {
  it('counts only the rules that apply, and lists the others grey with the reason', () => {
    const out: CustomizeOutput = {
      conflicts: 0,
      ruleFailures: 0,
      notOnSite: 0,
      byHop: [
        {
          index: 1,
          from: '4.4.10',
          to: '4.5.4',
          profiles: [
            {
              role: 'infra',
              name: 'vmo-infra',
              packs: [],
              rules: [
                { id: 'storage-class-name', title: 'Block StorageClass keeps its name', profile: 'infra', status: 'pass', message: 'csi-rook-ceph-helm (draft): "ceph-vm-block"', reason: 'r', pack: 'csi-rook-ceph-helm' },
                { id: 'storage-no-license-activation', title: 'No storage license activation', profile: 'infra', status: 'notApplicable', message: 'Rook-Ceph has no licence to activate', reason: 'r', pack: 'csi-rook-ceph-helm' },
              ],
              fixes: [],
              additions: [],
            },
          ],
        },
      ],
    };
    const ui = render(<CustomizeScreen {...props(stepWith('customize', { output: out }))} />);
    const frame = words(plain(ui.lastFrame()));
    expect(frame).toContain('RULES PASS 1/1 customization rules hold');
    expect(frame).toContain('N/A 1: No storage license activation (Rook-Ceph has no licence to activate)');
    ui.unmount();
  });
});
