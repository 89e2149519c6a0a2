import { z } from 'zod';
import { formatBytes, parseBytes } from '../io/limits.js';

/** A zod schema for sizes written as `64MiB`, `512KB`, `1GiB` or a number of bytes; the output is bytes. */
export const ByteSize = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const bytes = parseBytes(v);
  if (bytes === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a size such as 64MiB, 512KB or 1GiB, got ${JSON.stringify(v).slice(0, 40)}` });
    return z.NEVER;
  }
  return bytes;
});

export { formatBytes };
