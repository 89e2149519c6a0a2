/** A post-upgrade check (spec 9.3) as written in the runbook. */
import { z } from 'zod';

export const CheckKind = z.enum(['profiles', 'components', 'workloads', 'storage', 'network', 'nodes']);
export type CheckKind = z.infer<typeof CheckKind>;

export const CheckSpecSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id'),
  kind: CheckKind,
  title: z.string().min(1),
  /** Spec 9.3 item this check implements, shown in panels and reports. */
  spec: z.string().optional(),
  with: z.record(z.string(), z.unknown()).default({}),
});
