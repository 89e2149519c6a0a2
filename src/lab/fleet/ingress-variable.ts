/**
 * `lab --serve --fleet N --fleet-variables`: the shared add-on profile holds the ingress address as a
 * Palette profile variable, each cluster its own value, as the Palette docs' "Cluster Profile
 * Variables" page and its tutorial set one up: the variable declared on the profile
 * (`v1Variable {name, displayName, format: ipv4}`, palette-sdk-go spec 4.8), the pack values
 * referencing it quoted (`loadBalancerIP: '{{.spectro.var.INGRESS_IP}}'`), each cluster's value
 * given when it is deployed (`v1SpectroClusterVariable {name, value}` under the version's uid).
 */
import { parseDocument } from 'yaml';
import type { LabProfile, LabVariable } from '../palette/types.js';

export const ingressVariable: LabVariable = {
  name: 'INGRESS_IP',
  displayName: 'Ingress address',
  description: "The fixed address of this cluster's ingress controller (DNS records point at it)",
  format: 'ipv4',
  required: true,
  hidden: false,
  immutable: false,
  isSensitive: false,
};

const ingressPath = ['charts', 'ingress-nginx', 'controller', 'service', 'loadBalancerIP'];

/** Cluster i's own address (1-based), inside the lab's MetalLB pool and clear of its other fixed addresses. */
export const fleetIngressIP = (i: number): string => `10.10.100.${70 + ((i - 1) % 29)}`;

/** Declares INGRESS_IP on the profile's published version and references it where nginx keeps the address. */
export function holdIngressAsVariable(profile: LabProfile): void {
  const nginx = profile.published?.packs.find((p) => p.name === 'nginx');
  if (!nginx) throw new Error(`profile ${profile.name} holds no nginx pack to hold the ingress address as a variable`);
  const doc = parseDocument(nginx.values);
  doc.setIn(ingressPath, `{{.spectro.var.${ingressVariable.name}}}`);
  const scalar = doc.getIn(ingressPath, true) as { type?: string } | undefined;
  if (scalar) scalar.type = 'QUOTE_SINGLE';
  nginx.values = doc.toString();
  profile.variables = [...(profile.variables ?? []).filter((v) => v.name !== ingressVariable.name), { ...ingressVariable }];
}
