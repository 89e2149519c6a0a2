/**
 * The runbook's steps without the site's parameters, for the lab's first frame
 * (src/screens/LabShell.tsx, opened by src/run/lab-shell.ts).
 * The bundle carries the bundled runbook's outline computed at build time (scripts/build.mjs), so
 * the first frame loads neither the YAML parser nor the schemas; this reads it from the file when
 * running from the sources, or when the build computes it.
 */
import { plannedEntries } from '../engine/entries.js';
import { RunbookFrameSchema, type Runbook } from '../engine/runbook.js';
import type { Entry } from '../engine/state.js';
import { StepRegistry } from '../engine/step-kind.js';
import { readYamlFile } from '../engine/yaml-source.js';
import { LIMITS } from '../io/limits.js';

export interface RunbookOutline {
  title: string;
  entries: Entry[];
}

/**
 * The titles are the runbook's own, so they need no `${params.x}` resolved. A runbook this cannot
 * read shows no steps; loading it for the session reports what is wrong.
 */
export function runbookOutline(file: string): RunbookOutline {
  try {
    const raw = readYamlFile(file, 'runbook', LIMITS.runbookFile).value as { metadata?: { title?: unknown }; steps?: unknown };
    const steps = RunbookFrameSchema.shape.steps.safeParse(raw.steps);
    const title = typeof raw.metadata?.title === 'string' ? raw.metadata.title : 'runbook';
    return { title, entries: steps.success ? plannedEntries({ steps: steps.data } as Runbook, new StepRegistry()) : [] };
  } catch {
    return { title: 'runbook', entries: [] };
  }
}
