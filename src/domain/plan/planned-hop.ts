/**
 * What the plan decides for each hop: which packs move to which tags, which version label each
 * profile gets, where the new defaults come from, the variables the new version introduces, and
 * the predicted duration and room to move. Shapes only: the plan step makes them, the later steps
 * (steps/contracts.ts) and the domain read them.
 */
import type { ProfileRole } from '../../engine/params.js';
import type { HopRoom } from '../window/types.js';

export interface PlannedPack {
  name: string;
  from: string;
  to: string;
  /** Why it moves to that tag: `the hop's version`, `moveWith: latest patch`, `reference profile`. */
  source?: string;
}

export interface PlannedProfile {
  role: ProfileRole;
  uid: string;
  name: string;
  /** Profile version label before the hop, and the new one it publishes (new, increasing). */
  fromVersion: string;
  toVersion: string;
  /** Packs whose tag changes in this hop. */
  packs: PlannedPack[];
  /** Where the new defaults of this hop come from: a reference profile, a values folder, or the pack registry. */
  reference?: { kind: 'profile'; uid: string } | { kind: 'folder'; path: string } | { kind: 'registry'; registryUid: string; label: string };
  /** Without a reference profile: the packs that keep their tag in this hop (`kubernetes 1.32.2`). */
  stays?: string[];
}

export interface PlannedHop {
  index: number;
  from: string;
  to: string;
  /** Where this hop's version came from (`the target`, `highest 4.5.x tag in registry ...`). */
  source?: string;
  profiles: PlannedProfile[];
  /** Component versions this hop deploys, when the pack values say (e.g. KubeVirt v1.3.1). */
  kubevirtVersion?: string;
  cdiVersion?: string;
  /**
   * Profile variables the hop's new version introduces (version notes): declared on the profile
   * holding the orchestration pack before its draft, their values asked at the draft gate.
   */
  variables?: PlannedVariable[];
  /** How long the hop is predicted to take (issue 27): pack rollout, then the VMs' moves. */
  eta?: HopEtaContract;
  /** When the hop changes a pack that rebuilds nodes: whether the VMs of each drained node fit elsewhere (issue 27). */
  room?: HopRoom;
}

/** A hop's predicted duration, median and pessimistic, and what it is made of. */
export interface HopEtaContract {
  p50Seconds: number;
  p90Seconds: number;
  parts: Array<{ what: 'pack-rollout' | 'migrations' | 'restarts'; p50Seconds: number; p90Seconds: number; basis: string }>;
  summary: string;
}

export interface PlannedVariable {
  name: string;
  /** The profile that declares it (the one holding the pack whose version introduces it). */
  role: ProfileRole;
  displayName?: string;
  description: string;
  sensitive: boolean;
  format: string;
  /** The version that introduced it, and where that is said. */
  since: string;
  source: string;
}

/** A profile variable the cluster's profile uses: where its values reference it, and this cluster's value. */
export interface PlannedProfileVariable {
  role: ProfileRole;
  /** The profile's name. */
  profile: string;
  name: string;
  /** value: this cluster's value is known; masked: sensitive (Palette masks it); unset: none set (`value` is the declared default, if any); undeclared: referenced but not declared. */
  state: 'value' | 'masked' | 'unset' | 'undeclared';
  value?: string;
  /** `pack \`path\`` of each reference. */
  at: string[];
}
