/** A post-upgrade check (spec 9.3) as written in the runbook, with the parameters of its kind. */
import { z } from 'zod';
import { NsName } from '../engine/params.js';

const base = {
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id'),
  title: z.string().min(1),
  /** Spec 9.3 item this check implements, shown in panels and reports. */
  spec: z.string().optional(),
};

const Ref = z.strictObject({ namespace: z.string().min(1), name: z.string().min(1) });

export const CheckSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...base, kind: z.literal('profiles'), with: z.strictObject({}).prefault({}) }),
  z.strictObject({
    ...base,
    kind: z.literal('components'),
    with: z.strictObject({
      kubevirt: Ref.prefault({ namespace: 'kubevirt', name: 'kubevirt' }),
      cdi: z.strictObject({ name: z.string().min(1).default('cdi'), namespace: z.string().min(1).default('cdi') }).prefault({}),
      /** Pod name prefixes that must be Running and Ready, per namespace role. */
      kubevirtPods: z.array(z.string().min(1)).default(['virt-operator', 'virt-api', 'virt-controller', 'virt-handler']),
      cdiPods: z.array(z.string().min(1)).default(['cdi-operator', 'cdi-apiserver', 'cdi-deployment', 'cdi-uploadproxy']),
    }),
  }),
  z.strictObject({ ...base, kind: z.literal('workloads'), with: z.strictObject({}).prefault({}) }),
  z.strictObject({
    ...base,
    kind: z.literal('storage'),
    with: z.strictObject({
      storageCluster: NsName,
      /** Portworx's StorageCluster, or Rook-Ceph's CephCluster (healthy: phase Ready and HEALTH_OK). */
      clusterKind: z.enum(['StorageCluster', 'CephCluster']).default('StorageCluster'),
      storageClass: z.string().min(1),
      annotations: z.record(z.string(), z.string()).default({ 'storageclass.kubevirt.io/is-default-virt-class': 'true' }),
      parameters: z.record(z.string(), z.string()).default({}),
      /** StorageCluster phases: `Running` (operator 23.5+, with RuntimeState=Online) or `Online` on older operators. */
      healthyPhases: z.array(z.string()).default(['Running', 'Online']),
    }),
  }),
  z.strictObject({
    ...base,
    kind: z.literal('network'),
    with: z.strictObject({
      loadBalancerServices: z.array(NsName).default([]),
      ingressService: NsName,
      /** null on a site without an ingress controller: no ingress expectation. */
      ingressIP: z.string().min(1).nullable(),
    }),
  }),
  z.strictObject({
    ...base,
    kind: z.literal('nodes'),
    with: z.strictObject({ agentNamespaces: z.array(z.string().min(1)).default([]) }),
  }),
]);

export type CheckSpec = z.output<typeof CheckSpecSchema>;
export type CheckKind = CheckSpec['kind'];
