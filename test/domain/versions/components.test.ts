import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packStack } from '../../../src/lab/data/pack-catalog.js';
import { componentVersions } from '../../../src/domain/versions/components.js';

const vmoValues = (v: '4.4.10' | '4.5.4' | '4.6.3') => packStack(v).addon.find((p) => p.name === 'virtual-machine-orchestrator')!.values;

describe('componentVersions', () => {
  it('reads the KubeVirt and CDI operator tags from real VM orchestration pack values', () => {
    expect(componentVersions(readFileSync(new URL('../../fixtures/values/real/virtual-machine-orchestrator.kubevirt-v1.4.0.values.yaml', import.meta.url), 'utf8'))).toEqual({ kubevirt: 'v1.4.0', cdi: 'v1.61.0' });
    expect(componentVersions(vmoValues('4.4.10'))).toEqual({ kubevirt: 'v1.2.0', cdi: 'v1.58.0' });
    expect(componentVersions(vmoValues('4.5.4'))).toEqual({ kubevirt: 'v1.3.1', cdi: 'v1.60.3' });
  });

  it('falls back to the images the pack lists, and says nothing when the values do not say', () => {
    const listed = 'pack:\n  content:\n    images:\n      - image: quay.io/kubevirt/virt-operator:v1.3.0\n      - image: quay.io/kubevirt/cdi-operator:v1.59.1\n';
    expect(componentVersions(listed)).toEqual({ kubevirt: 'v1.3.0', cdi: 'v1.59.1' });
    expect(componentVersions('charts: {}\n')).toEqual({});
    expect(componentVersions('key: [unclosed\n')).toEqual({});
    expect(componentVersions(undefined)).toEqual({});
  });
});
