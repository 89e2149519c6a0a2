/**
 * The site parameters as a capture keeps them: as the operator wrote them (durations and sizes in
 * their own words, so the replay validates them exactly as the site did), without what belongs to
 * this machine or could be a credential: notification targets (a webhook URL is itself a secret),
 * the kubeconfig path and context, the lab clock, the values folder's path (its files are a part of
 * the capture). Pure.
 */
export function captureParams(raw: unknown): Record<string, unknown> {
  const params = structuredClone((raw ?? {}) as Record<string, unknown>);
  delete params.notify;
  delete params.valuesDir;
  const cluster = params.cluster as Record<string, unknown> | undefined;
  if (cluster) {
    delete cluster.kubeconfig;
    delete cluster.context;
  }
  const extra = params.extra as Record<string, unknown> | undefined;
  if (extra) delete extra.labClockUrl;
  return params;
}
