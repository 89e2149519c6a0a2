import type { StepContext } from '../../engine/context.js';
import type { RecoverOutstanding } from '../verify/expectations.js';

/** VMs left on the old launcher by an earlier hop would end up two minors behind after this one. */
export function outstandingWarning(ctx: StepContext<unknown>): string | undefined {
  const outstanding = [...new Set(ctx.outputsOfKind<RecoverOutstanding>('recover').flatMap((r) => r.outstanding ?? []))];
  if (outstanding.length === 0) return undefined;
  return `${outstanding.length} VM(s) still run the previous launcher (${outstanding.slice(0, 5).join(', ')}${outstanding.length > 5 ? ', …' : ''}); after this hop they would be two minors behind and cannot live-migrate. Restart them first.`;
}
