/**
 * What the session's flavor changes in the plan. On a real Palette each version is its own object:
 * the version to start from is the one attached to the cluster (an earlier upgrade may have moved
 * it past the uid in the params), and the plan names the way back to it. Edited in place, a version
 * keeps its label, so the plan's labels are the deployed ones. Says in words what each hop will do.
 */
import { profileRoles, type ProfileRole } from '../../engine/params.js';
import type { DeployedProfileDoc, PaletteApi, ProfileDoc } from '../../palette/api.js';
import { flavorTitle, type FlavorChoice } from '../../palette/flavor.js';
import { hopStepWords } from '../../domain/flavor/hop-steps.js';
import { planWayBack } from '../../domain/flavor/way-back.js';
import type { PlanOutput } from './types.js';

/**
 * Palette flavor: where the cluster runs another version of a profile than the params name (same
 * name, other uid), plan from the attached one. Returns the docs to plan from and a note per swap.
 */
export async function attachedDocs(
  docs: Record<ProfileRole, ProfileDoc>,
  deployed: DeployedProfileDoc[],
  choice: FlavorChoice,
  palette: PaletteApi,
  signal: AbortSignal,
): Promise<{ docs: Record<ProfileRole, ProfileDoc>; notes: string[] }> {
  if (choice.flavor !== 'palette') return { docs, notes: [] };
  const out = { ...docs };
  const notes: string[] = [];
  for (const role of profileRoles) {
    const attached = deployed.find((d) => d.name === docs[role].name && d.uid !== undefined && d.uid !== docs[role].uid);
    if (!attached?.uid) continue;
    out[role] = await palette.getProfile(attached.uid, { manifests: false, signal });
    notes.push(`The cluster runs ${attached.name} ${attached.version} (uid ${attached.uid}), not the version the params name (uid ${docs[role].uid}): planning from the attached one.`);
  }
  return { docs: out, notes };
}

/** The plan with the flavor, the way back and (in place) the kept labels. */
export function withFlavor(out: PlanOutput, choice: FlavorChoice, docs: Record<ProfileRole, ProfileDoc>, clusterUid: string): PlanOutput {
  const deployedVersion = (role: ProfileRole) => docs[role].publishedVersion ?? docs[role].version;
  const wayBack = planWayBack(
    choice,
    profileRoles.map((role) => ({ role, name: docs[role].name, uid: docs[role].uid, version: deployedVersion(role) })),
    clusterUid,
  );
  const steps = hopStepWords(choice);
  const notes = [...out.notes, `Profile API: ${flavorTitle(choice)} (${choice.evidence}). Each hop: ${steps.draft}; ${steps.publish}; ${steps.apply}; ${steps.repave}; ${steps.reconcile}.`];
  const planned = { ...out, flavor: choice.flavor, wayBack, notes };
  if (choice.flavor !== 'palette' || choice.versioning !== 'in-place') return planned;
  // In place the label never changes: every hop publishes under the deployed label.
  const labels = new Map(profileRoles.map((role) => [docs[role].name, deployedVersion(role)]));
  return {
    ...planned,
    hops: out.hops.map((h) => ({ ...h, profiles: h.profiles.map((p) => ({ ...p, fromVersion: labels.get(p.name) ?? p.fromVersion, toVersion: labels.get(p.name) ?? p.toVersion })) })),
    ...(out.expectations
      ? { expectations: { ...out.expectations, ...(out.expectations.profiles ? { profiles: out.expectations.profiles.map((p) => ({ ...p, ...(labels.has(p.name) ? { version: labels.get(p.name)! } : {}) })) } : {}) } }
      : {}),
  };
}
