/**
 * Each VMI's dirty rate, from the cluster's Prometheus: KubeVirt's gauge
 * `kubevirt_vmi_dirty_rate_bytes_per_second` (labels `namespace`, `name` of the VMI), read with one
 * instant query (Prometheus HTTP API `GET /api/v1/query`: `{status: "success", data: {resultType:
 * "vector", result: [{metric: {...}, value: [<unix time>, "<number>"]}]}}`). The metric is
 * optional: an unreachable or failing endpoint gives no rates and a note, never a failed plan.
 * Here the answer's shape and its rates; the query is the plan step's (steps/plan/window-reads.ts).
 */
import { z } from 'zod';
import { safeParseFast } from '../../io/fast-schema.js';
import { opt } from '../../io/optional-field.js';

/** KubeVirt's gauge of each VMI's dirty rate. */
export const dirtyRateMetric = 'kubevirt_vmi_dirty_rate_bytes_per_second';

/** The Prometheus HTTP API's envelope (docs, "HTTP API": `errorType`, `error` and `warnings` only when set). */
export const PrometheusAnswerSchema = z.object({
  status: z.string(),
  errorType: opt(z.string()),
  error: opt(z.string()),
  warnings: opt(z.array(z.string())),
  data: opt(
    z
    .object({
      resultType: z.string(),
      result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: z.array(z.union([z.number(), z.string()])) })),
    }),
  ),
});

/** Rates by `namespace/name`, from a Prometheus answer (pure). */
export function dirtyRatesOf(answer: unknown): Map<string, number> | string {
  const parsed = safeParseFast(PrometheusAnswerSchema, answer);
  if (!parsed.success) return 'the answer is not a Prometheus query result';
  if (parsed.data.status !== 'success' || !parsed.data.data) return `Prometheus answered ${parsed.data.status}${parsed.data.error ? `: ${parsed.data.error}` : ''}`;
  const rates = new Map<string, number>();
  for (const r of parsed.data.data.result) {
    const value = Number(r.value[1]);
    const { namespace, name } = r.metric;
    if (namespace && name && Number.isFinite(value) && value >= 0) rates.set(`${namespace}/${name}`, Math.max(value, rates.get(`${namespace}/${name}`) ?? 0));
  }
  return rates;
}
