/** The step kinds upgrade-pilot ships, registered explicitly (no side effects on import). */
import { StepRegistry } from '../engine/step-kind.js';
import { verifyStep } from './verify/verify.js';

export function builtinSteps(): StepRegistry {
  return new StepRegistry().register(verifyStep);
}
