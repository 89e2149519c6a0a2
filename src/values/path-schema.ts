/** A path or pattern in the syntax of `path.ts`, checked when the runbook loads rather than mid-upgrade. */
import { z } from 'zod';
import { PilotError } from '../errors.js';
import { parsePath } from './path.js';

export const PathText = z
  .string()
  .min(1)
  .superRefine((text, ctx) => {
    try {
      parsePath(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof PilotError ? err.message : String(err) });
    }
  });
