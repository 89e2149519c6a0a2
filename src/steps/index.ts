/**
 * The step kinds upgrade-pilot ships, registered explicitly (no side effects on import). Each is its
 * card (cards.ts) with a loader of its code: the code of a kind is loaded when a step of it first
 * runs, so a command that only checks the runbook (verify, plan, diff) loads none of it.
 */
import { lazyStepKind, StepRegistry, type AnyStepKind, type CatalogueCard } from '../engine/step-kind.js';
import * as cards from './cards.js';

/** Each card with the module that holds its kind's code (loaded on demand). */
const catalogue: Array<[CatalogueCard, () => Promise<AnyStepKind>]> = [
  [cards.preflightCard, async () => (await import('./preflight/preflight.js')).preflightStep],
  [cards.snapshotCard, async () => (await import('./snapshot/snapshot.js')).snapshotStep],
  [cards.planCard, async () => (await import('./plan/plan.js')).planStep],
  [cards.customizeCard, async () => (await import('./customize/customize.js')).customizeStep],
  [cards.draftCard, async () => (await import('./hop/draft.js')).draftStep],
  [cards.publishCard, async () => (await import('./hop/publish.js')).publishStep],
  [cards.applyCard, async () => (await import('./hop/apply.js')).applyStep],
  [cards.repaveCard, async () => (await import('./hop/repave.js')).repaveStep],
  [cards.reconcileCard, async () => (await import('./hop/reconcile.js')).reconcileStep],
  [cards.migrationsCard, async () => (await import('./migrations/monitor-step.js')).migrationsStep],
  [cards.diagnoseCard, async () => (await import('./migrations/diagnose-step.js')).diagnoseStep],
  [cards.recoverCard, async () => (await import('./migrations/recover-step.js')).recoverStep],
  [cards.verifyCard, async () => (await import('./verify/verify.js')).verifyStep],
  [cards.reportCard, async () => (await import('./report.js')).reportStep],
];

export function builtinSteps(): StepRegistry {
  return new StepRegistry().register(...catalogue.map(([card, load]) => lazyStepKind(card, load)));
}

/** Every kind's code, loaded now (for a test that holds each card to its code). */
export async function builtinStepCode(): Promise<Array<{ card: CatalogueCard; code: AnyStepKind }>> {
  return Promise.all(catalogue.map(async ([card, load]) => ({ card, code: await load() })));
}
