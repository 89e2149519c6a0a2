/** Known-issue signatures (spec 9.1.3) as written in the runbook. */
import { z } from 'zod';

export const SignatureSource = z.enum(['migrationFailureReason', 'virtHandlerLogs', 'launcherLogs']);

export const KnownIssueSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a lower-case id'),
  title: z.string().min(1),
  /** What the runbook prescribes when the issue is found. */
  recovery: z.array(z.string().min(1)).min(1),
  signatures: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        source: SignatureSource,
        /** A regular expression (case-insensitive) matched against each line of the source. */
        pattern: z.string().min(1).refine((p) => {
          try {
            new RegExp(p, 'i');
            return true;
          } catch {
            return false;
          }
        }, 'expected a valid regular expression'),
        secondary: z.boolean().default(false),
        description: z.string().optional(),
      }),
    )
    .min(1),
});

export type KnownIssue = z.output<typeof KnownIssueSchema>;
