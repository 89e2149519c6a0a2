/**
 * The runbook as the product reads it: the engine's frame (metadata, settings, steps; see
 * engine/runbook.ts) with the sections each layer owns: the values settings, the customization
 * rules of spec 9.2 and the vendors' version notes (values/), the checks of 9.3 (kube/), the
 * known-issue signatures of 9.1.3 (steps/). Each section's own schema lives with the module that
 * uses it; whoever loads a runbook loads it with this one (steps/runbook-load.ts).
 */
import { z } from 'zod';
import { RunbookFrameSchema, type Runbook } from '../engine/runbook.js';
import type { RunbookGrammar } from '../engine/load.js';
import { CheckSpecSchema } from '../kube/check-schema.js';
import { RuleSpecSchema } from '../values/rule-schema.js';
import { ValuesSettingsSchema } from '../values/settings-schema.js';
import { VersionNoteSchema } from '../values/version-notes-schema.js';
import { KnownIssueSchema } from './known-issue-schema.js';

const RunbookSectionsSchema = z.strictObject({
  values: ValuesSettingsSchema.prefault({}),
  rules: z.array(RuleSpecSchema).default([]),
  /** What the packs' vendors say changes between versions: moved and removed keys, stepping stones, new variables. */
  versionNotes: z.array(VersionNoteSchema).default([]),
  checks: z.array(CheckSpecSchema).default([]),
  knownIssues: z.array(KnownIssueSchema).default([]),
});

type Sections = z.output<typeof RunbookSectionsSchema>;

declare module '../engine/runbook.js' {
  /** The sections the steps read from the runbook (ctx.runbook). */
  interface RunbookSections extends Sections {}
}

export const RunbookSchema = RunbookFrameSchema.extend(RunbookSectionsSchema.shape);

/** The runbook's schema and what it cannot say of a section: every rule's id is its own. */
export const RUNBOOK_GRAMMAR: RunbookGrammar = {
  schema: RunbookSchema,
  sectionsProblem(runbook: Runbook) {
    const ruleIds = new Set<string>();
    for (const [i, r] of runbook.rules.entries()) {
      if (ruleIds.has(r.id)) return { at: ['rules', i, 'id'], message: `duplicate rule id \`${r.id}\``, hint: 'Give every rule a unique id.' };
      ruleIds.add(r.id);
    }
    return undefined;
  },
};
