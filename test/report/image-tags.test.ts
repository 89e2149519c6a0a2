import { describe, expect, it } from 'vitest';
import { exampleChange, imageTagsOnly, isImageLine, withoutImageHunks } from '../../src/report/image-tags.js';

describe('image-tag lines', () => {
  it.each([
    ['      tag: v1.3.1', true],
    ['  image: quay.io/kubevirt/virt-operator:v1.3.1', true],
    ['  imageTag: "1.61.0"', true],
    ['  "version": "4.5.4"', true],
    ['  - image: registry.example.com/cdi/cdi-operator:v1.60.3', true],
    ['    - us-docker.pkg.dev/palette-images/packs/kubevirt/virt-handler:v1.3.1', true],
    ['    - registry.local:5000/kubevirt/virt-api@sha256:0123456789abcdef0123456789abcdef', true],
    ['', true],
    ['      autoAssign: true', false],
    ['      loadBalancerIP: 10.10.100.60', false],
    ['  additionalFeatureGates:', false],
    ['    - SMM', false],
    ['  name: px-vm-block', false],
  ])('%j is an image/tag line: %s', (line, expected) => {
    expect(isImageLine(line)).toBe(expected);
  });

  const imagesOnly = ['@@ -1,3 +1,3 @@', ' kubevirt:', '-  tag: v1.2.0', '+  tag: v1.3.1', '@@ -9,2 +9,2 @@', '-  image: quay.io/x/y:v1', '+  image: quay.io/x/y:v2'];
  const mixed = [...imagesOnly, '@@ -20,3 +20,3 @@', ' pools:', '-  autoAssign: false', '+  autoAssign: true'];

  it('a diff of images and tags only is folded; a truncated one never is (the rest is unseen)', () => {
    expect(imageTagsOnly(imagesOnly, false)).toBe(true);
    expect(imageTagsOnly(imagesOnly, true)).toBe(false);
    expect(imageTagsOnly(mixed, false)).toBe(false);
    expect(imageTagsOnly([], false)).toBe(false);
  });

  it.each([
    ['a repository path moving with the version', ['@@ -1,2 +1,2 @@', '-  repository: "registry.example/packs/cilium/1.16.6/cilium"', '-  tag: "v1.16.6"', '+  repository: "registry.example/packs/cilium/1.16.9/cilium"', '+  tag: "v1.16.9"'], true],
    ['a digest', ['@@ -1,1 +1,1 @@', '-  digest: "sha256:0123456789abcdef0123456789abcdef"', '+  digest: "sha256:fedcba9876543210fedcba9876543210"'], true],
    ['a new component image', ['@@ -1,1 +1,2 @@', ' images:', '+  - image: quay.io/kubevirt/virt-exportproxy:v1.3.1'], true],
    ['a registry mirror lost', ['@@ -1,1 +1,1 @@', '-  repository: "mirror.site.local/cilium/cilium"', '+  repository: "quay.io/cilium/cilium"'], false],
    ['a value that happens to sit next to a tag', ['@@ -1,2 +1,2 @@', '-  tag: v1.2.0', '-  replicas: 3', '+  tag: v1.3.1', '+  replicas: 1'], false],
  ])('%s: image tags only = %s', (_name, patch, expected) => {
    expect(imageTagsOnly(patch, false)).toBe(expected);
  });

  it('a mixed diff keeps the hunks that change something else, and counts the folded lines', () => {
    expect(withoutImageHunks(mixed)).toEqual({ kept: ['@@ -20,3 +20,3 @@', ' pools:', '-  autoAssign: false', '+  autoAssign: true'], folded: 4 });
    expect(exampleChange(imagesOnly)).toBe('tag: v1.2.0 → tag: v1.3.1');
  });
});
