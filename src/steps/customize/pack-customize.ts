/**
 * One pack version of one hop: its new defaults read, the keys the version notes moved put in their
 * new place, the values compared (3-way when the old defaults are known), the decisions taken, the
 * site's settings carried into the new defaults' document, and site-added manifests carried.
 */
import { StepFailedError } from '../../errors.js';
import { decide, decideManifests, diffManifests, diffValues, mergeManifests, mergeValuesDocument } from '../../values/index.js';
import { relocate, type Move } from '../../values/relocate.js';
import { notesFor } from '../../values/version-notes.js';
import type { PlanContract } from '../contracts.js';
import type { PlannedProfile } from '../../domain/plan/planned-hop.js';
import { readValues, type ComputeInput } from './compute-input.js';
import { packEntries } from './pack-entries.js';
import { countLabels, sourceFor, type PackState } from './pack-state.js';
import { decisionKey, type PackCustomization } from './types.js';

export interface PackResult {
  result: PackCustomization;
  state: PackState;
  newDefaults: PackState;
  /** The site's values as the new version lays them out (moved keys in their new place). */
  before: PackState;
  /** Paths whose values someone typed at the review. */
  entered: Array<{ path: string; value: unknown }>;
}

export async function customizePack(
  input: ComputeInput,
  hop: PlanContract['hops'][number],
  planned: PlannedProfile,
  change: { name: string; from: string; to: string },
  deployed: PackState,
  oldDefaults: PackState | undefined,
): Promise<PackResult> {
  const { sources, settings } = input;
  const refUid = planned.reference?.kind === 'profile' ? planned.reference.uid : undefined;
  const fresh = await sourceFor(sources, refUid, planned.uid, change.name, change.to);
  if (!fresh) {
    throw new StepFailedError('customize.no-defaults', `No default values for ${change.name} ${change.to} (hop ${hop.index}, ${planned.name}).`, {
      hint: `Give hop ${hop.index} a reference profile holding ${change.name} ${change.to} (params references), add ${change.name}/${change.to}.yaml to the values folder (params valuesDir), or name the pack registry (params palette.registryUid).`,
    });
  }
  const newDefaults: PackState = { values: readValues(input, fresh.values, `the ${change.name} ${change.to} defaults from ${fresh.from}`), manifests: fresh.manifests, from: fresh.from };

  // What the vendor says this version changed: moved keys go to their new place before comparing.
  const notes = notesFor(input.notes ?? [], change.name, input.site.packs.orchestration, change.from, change.to);
  const moves: Move[] = notes.flatMap((n) => n.moved);
  const relocated = relocate(deployed.values, moves, newDefaults.values);
  const oldRelocated = oldDefaults ? relocate(oldDefaults.values, moves, newDefaults.values).values : undefined;
  const before: PackState = { ...deployed, values: relocated.values };
  const diff = diffValues({ deployed: relocated.values, newDefaults: newDefaults.values, oldDefaults: oldRelocated, settings });

  const { entries, decisions, entered, ignored } = packEntries({
    diff,
    given: (path) => input.decisions[decisionKey(hop.index, planned.role, change.name, path)],
    removedKeys: notes.flatMap((n) => n.removed),
    moved: relocated.moved,
    pack: change.name,
    to: change.to,
  });
  const carry = decide(diff, decisions);
  const merged = mergeValuesDocument({ newDefaults: newDefaults.values, carry, deployed: relocated.values });
  const result = new Map(carry.map((c) => [c.path, c]));
  for (const e of entries) if (e.result === undefined) e.result = result.has(e.path) ? ('value' in result.get(e.path)! ? result.get(e.path)!.value : undefined) : e.newDefault;

  const mdiff = diffManifests(deployed.manifests, newDefaults.manifests, oldDefaults?.manifests);
  const manifests = mergeManifests(newDefaults.manifests, decideManifests(mdiff));
  const manifestChanges = mdiff.entries.map((m) => `${m.name}: ${m.label}`);

  return {
    result: {
      name: change.name,
      from: change.from,
      tag: change.to,
      values: merged.text,
      manifests: manifests.map((m) => ({ name: m.name, content: m.content })),
      carried: entries.filter((e) => e.label === 'carried' || e.label === 'candidate' || (e.label === 'conflict' && e.decision !== 'takeNew')).length,
      mode: diff.mode,
      counts: countLabels(entries, ignored),
      entries,
      manifestChanges,
      sources: { deployed: deployed.from, newDefaults: newDefaults.from, ...(oldDefaults ? { oldDefaults: oldDefaults.from } : {}) },
      deployedValues: deployed.values.text,
    },
    state: { values: merged, manifests, from: `hop ${hop.index} result` },
    newDefaults,
    before,
    entered,
  };
}
