/**
 * Opening the lab's first frame (screens/LabShell.tsx) for `upgrade-pilot lab`: with the bundled
 * runbook's outline, so the operator sees the steps while the lab starts.
 */
import { bundledRunbook } from '../engine/bundled-runbook.js';
import { drawLabShell, type LabShell } from '../screens/LabShell.js';
import type { RunbookOutline } from './runbook-outline.js';
import type { RunIO } from './session-run.js';

/** Set by the bundler (scripts/build.mjs) to the bundled runbook's outline; undefined when running from the sources. */
declare const UPGRADE_PILOT_RUNBOOK_OUTLINE: RunbookOutline | undefined;

/**
 * The bundled runbook's outline: compiled into the bundle, so the first frame loads neither the
 * YAML parser nor the schemas (BENCHMARKS.md, "first TUI frame"); read from the file otherwise.
 */
export async function bundledOutline(): Promise<RunbookOutline> {
  if (typeof UPGRADE_PILOT_RUNBOOK_OUTLINE === 'object') return UPGRADE_PILOT_RUNBOOK_OUTLINE;
  return (await import('./runbook-outline.js')).runbookOutline(bundledRunbook());
}

/** Draws the shell at once and returns; the caller starts the lab meanwhile. */
export async function openLabShell(io: RunIO, opts: { scenario: string; rehearsal: boolean; flavor: 'spec' | 'palette' }): Promise<LabShell> {
  return drawLabShell(io, await bundledOutline(), opts);
}
