/**
 * Loading the runbook the product follows: the engine's loader (engine/load.ts) with the runbook's
 * whole schema, its frame and every layer's sections (steps/runbook-schema.ts).
 */
import { loadRunbookAs, parseRunbookAs, type LoadedRunbook } from '../engine/load.js';
import type { Params } from '../engine/params.js';
import type { StepRegistry } from '../engine/step-kind.js';
import { RUNBOOK_GRAMMAR } from './runbook-schema.js';

export function loadRunbook(file: string, params: Params | undefined, registry: StepRegistry): LoadedRunbook {
  return loadRunbookAs(RUNBOOK_GRAMMAR, file, params, registry);
}

export function parseRunbook(text: string, file: string, params: Params | undefined, registry: StepRegistry): LoadedRunbook {
  return parseRunbookAs(RUNBOOK_GRAMMAR, text, file, params, registry);
}
