/**
 * The one rule for a field another system may leave out: absent and `null` both mean "not set",
 * and both come out as `undefined`.
 *
 * Go encodes a nil pointer, a nil slice or map and a null `metav1.Time` as `null` unless the field
 * is `omitempty` (and a pointer with `omitempty` may still be written as `null` by a client that
 * builds the JSON itself): a running VMI's `LiveMigratable` condition carries
 * `lastProbeTime: null` and `lastTransitionTime: null` (kubevirt/api core/v1 types.go,
 * `VirtualMachineInstanceCondition`; the KubeVirt runbook `VMCannotBeEvicted` shows one). zod's
 * `.optional()` refuses `null`, and `.nullish()` hands it on as `null`, which code that compares
 * with `undefined` then takes for a value. Every schema of an answer (the cluster, the profile
 * API, a kubeconfig) builds its optional fields with `opt`; test/io/optional-field.test.ts walks
 * every such schema and feeds `null` into each optional field.
 *
 * `overwrite` (a check that replaces the value, not a transform) keeps the schema an optional of
 * the field's own type for zod's introspection and costs about a fifth of a transform on a 5,000-VMI
 * list. The declared type says what comes out: the field's type, or undefined.
 */
import { z } from 'zod';

/** What `opt` makes of a value: `null` is not set. (Named: the compiled parse, fast-schema.ts, knows it.) */
export const notSetWhenNull = (v: unknown): unknown => v ?? undefined;

export function opt<T extends z.ZodType>(schema: T): z.ZodOptional<T> {
  return schema.nullish().overwrite(notSetWhenNull as (v: z.output<T> | null | undefined) => z.output<T> | null | undefined) as unknown as z.ZodOptional<T>;
}

/** Whether a value the product reads by hand (no schema) is set: neither absent nor `null`. */
export const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;
