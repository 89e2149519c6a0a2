/** The step kinds upgrade-pilot ships, registered explicitly (no side effects on import). */
import { StepRegistry } from '../engine/step-kind.js';
import { verifyStep } from './verify/verify.js';
import { draftStep } from './hop/draft.js';
import { publishStep } from './hop/publish.js';
import { reconcileStep } from './hop/reconcile.js';
import { applyStep } from './hop/apply.js';
import { repaveStep } from './hop/repave.js';
import { reportStep } from './report.js';
import { preflightStep } from './preflight/preflight.js';
import { snapshotStep } from './snapshot/snapshot.js';
import { planStep } from './plan/plan.js';
import { customizeStep } from './customize/customize.js';
import { diagnoseStep, migrationsStep, recoverStep } from './migrations/index.js';

export function builtinSteps(): StepRegistry {
  return new StepRegistry().register(
    preflightStep,
    snapshotStep,
    planStep,
    customizeStep,
    draftStep,
    publishStep,
    applyStep,
    repaveStep,
    reconcileStep,
    migrationsStep,
    diagnoseStep,
    recoverStep,
    verifyStep,
    reportStep,
  );
}
