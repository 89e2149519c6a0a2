/**
 * Profile variables a hop's new version introduces (version notes; VMO 4.10's LOCAL_ADMIN_PASSWORD),
 * through the hop: the draft gate says so and asks for each value (hidden in the TUI; from the source
 * the operator named in plain mode); on a real Palette the variable is declared on the new version
 * before its draft is written (else `PackVariablesUndefined`), and its value is set for the cluster
 * with the apply. A value never enters a request as written to the journal: the request holds a
 * marker, filled in as it is sent (palette/variable-values.ts).
 */
import { InputError, StepFailedError } from '../../errors.js';
import type { GateRequest } from '../../engine/gate.js';
import type { ProfileRole } from '../../engine/params.js';
import type { FlavorChoice } from '../../palette/flavor.js';
import { isPendingUid } from '../../palette/mutations.js';
import { valueMarker } from '../../palette/variable-values.js';
import { putVariablesRequest, variablesApi } from '../../palette/variables.js';
import { declaration } from '../../values/profile-variables.js';
import type { VariableNote } from '../../values/version-notes-schema.js';
import { currentHop } from '../contracts.js';
import type { PlannedVariable } from '../../domain/plan/planned-hop.js';
import type { HopContext } from './flavors/types.js';

/** The variables this hop introduces on the profile of `role`. */
export function hopVariables(ctx: HopContext, role: ProfileRole): PlannedVariable[] {
  return (currentHop(ctx)?.variables ?? []).filter((v) => v.role === role);
}

const describe = (v: PlannedVariable) => `${v.name}${v.displayName && v.displayName !== v.name ? ` (${v.displayName})` : ''}`;

/** What a gate says about the variables, and the values it must ask for (those not known yet). */
export function variableGate(ctx: HopContext, vars: readonly PlannedVariable[], flavor: FlavorChoice, at: 'draft' | 'apply'): Pick<GateRequest, 'secretInputs'> & { lines: string[]; warnings: string[] } {
  if (vars.length === 0) return { lines: [], warnings: [] };
  if (flavor.flavor !== 'palette') {
    return {
      lines: [],
      warnings: vars.map((v) => `${v.since} introduces the profile variable ${describe(v)}; this profile API (the spec's) has no profile variables, so it is neither declared nor set: the draft carries the values as the new version ships them.`),
    };
  }
  const values = ctx.effects.variables;
  const lines: string[] = [];
  const secretInputs: NonNullable<GateRequest['secretInputs']> = [];
  for (const v of vars) {
    lines.push(
      at === 'draft'
        ? `${v.since} introduces the profile variable ${describe(v)}: ${v.description} It is declared on the new version before its draft is written; its value is set for the cluster with the apply, and written nowhere (journal, report, screen).`
        : `The apply sets ${describe(v)} for the cluster (its value is sent with the request and written nowhere).`,
    );
    if (ctx.dryRun) continue;
    const known = values?.get(v.name) !== undefined;
    if (known) lines.push(`  ${v.name}: given${values?.sourceOf(v.name) ? ` (from ${values.sourceOf(v.name)})` : ' (typed earlier in this run)'}.`);
    else if (values?.canAsk) {
      secretInputs.push({ name: v.name, label: `${describe(v)}${v.sensitive ? ' (hidden)' : ''}` });
      lines.push(`  ${v.name}: not given yet; approving asks for it (typed ${v.sensitive ? 'hidden ' : ''}twice).`);
    }
  }
  return { lines, warnings: [], ...(secretInputs.length ? { secretInputs } : {}) };
}

/** After the gate: every value is known (typed at it, or from its source); otherwise nothing is sent. */
export function requireValues(ctx: HopContext, vars: readonly PlannedVariable[], flavor: FlavorChoice): void {
  if (ctx.dryRun || flavor.flavor !== 'palette') return;
  const missing = vars.filter((v) => ctx.effects.variables?.get(v.name) === undefined);
  if (missing.length === 0) return;
  throw new InputError('variables.unset', `No value for the profile variable(s) ${missing.map((v) => v.name).join(', ')}: nothing was sent.`, {
    hint: `Name where each comes from: --variable ${missing[0]!.name}=env:VAR (or =file:PATH), or params variables: ${missing[0]!.name}: {env: VAR}; or resume in the TUI, which asks. Never the value itself on the command line.`,
  });
}

/**
 * Declares the hop's variables on the version the draft goes to (before its PUT). A clone carries its
 * source's declarations, and PUT replaces the list: the request holds those plus the new ones.
 * In a rehearsal, where no clone exists, the nearest real version's list stands for the clone's.
 */
export async function declareVariables(ctx: HopContext, target: { uid: string; sourceUid: string; deployedUid: string; name: string; label: string }, vars: readonly PlannedVariable[], flavor: FlavorChoice, approvedBy: string): Promise<void> {
  if (vars.length === 0 || flavor.flavor !== 'palette') return;
  if (flavor.versioning === 'in-place') {
    throw new StepFailedError('variables.in-place', `${target.name} ${target.label} introduces the profile variable(s) ${vars.map((v) => v.name).join(', ')}, and the version the cluster runs cannot change its variables (Palette allows that only on a new version).`, {
      hint: 'Nothing was written. Plan with the default palette.versioning: clone (each hop a new version), or declare the variables in Palette yourself and resume.',
    });
  }
  const api = variablesApi(ctx.effects.palette);
  if (!api) throw new StepFailedError('variables.no-api', `This profile API client cannot declare the profile variable(s) ${vars.map((v) => v.name).join(', ')}.`, { hint: 'Declare them in Palette on the new version, then resume.' });
  // A rehearsal makes no clones: the version (and the earlier hop's it comes from) has no uid yet, and holds what the deployed one declares.
  const readable = [target.uid, target.sourceUid].find((u) => !isPendingUid(u)) ?? target.deployedUid;
  const existing = await api.list(readable, ctx.signal);
  const missing = vars.filter((v) => !existing.some((e) => e.name === v.name));
  if (missing.length === 0) return;
  await ctx.mutate({
    key: `${ctx.step.id}/variables`,
    request: putVariablesRequest(target.uid, [...existing, ...missing.map((v) => declaration({ name: v.name, ...(v.displayName ? { displayName: v.displayName } : {}), description: v.description, sensitive: v.sensitive, format: v.format as VariableNote['format'] }))], `declare ${missing.map((v) => v.name).join(', ')} on ${target.name} ${target.label}`),
    approvedBy,
    settle: async () => {
      const now = await api.list(target.uid, ctx.signal);
      return missing.every((m) => now.some((e) => e.name === m.name)) ? 'done' : 'not-done';
    },
  });
}

/** The apply entry's variables: markers the client fills in as it sends (nothing else ever sees the value). */
export function applyVariables(vars: readonly PlannedVariable[], flavor: FlavorChoice): { variables?: Array<{ name: string; value: string }> } {
  if (vars.length === 0 || flavor.flavor !== 'palette') return {};
  return { variables: vars.map((v) => ({ name: v.name, value: valueMarker(v.name) })) };
}
