/** The shipped JSON Schema of the report (schemas/report.schema.json) as a validator. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const reportSchemaFile = new URL('../../schemas/report.schema.json', import.meta.url);

export function shippedReportSchema(): z.ZodType {
  return z.fromJSONSchema(JSON.parse(readFileSync(reportSchemaFile, 'utf8')) as Parameters<typeof z.fromJSONSchema>[0]);
}
