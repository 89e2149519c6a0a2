/**
 * Delivers one message to one webhook: a POST of the JSON, bounded in time, never following a
 * redirect (a redirect could carry the message to another host), never with any header of the
 * profile API. A non-2xx answer is a failure. Retries are the notifier's business.
 */
import { gotOnDemand } from '../net/got-on-demand.js';
import { toolVersion } from '../version.js';

export class DeliveryError extends Error {
  constructor(
    message: string,
    /** Worth another attempt (a time-out, a dropped connection, 429, 5xx). */
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export async function postWebhook(url: URL, body: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
  let status: number;
  try {
    const { default: got } = await gotOnDemand();
    const response = await got.post(url, {
      body,
      headers: { 'content-type': 'application/json', 'user-agent': `upgrade-pilot/${toolVersion}` },
      timeout: { request: timeoutMs },
      retry: { limit: 0 },
      followRedirect: false,
      throwHttpErrors: false,
      signal,
    });
    status = response.statusCode;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (signal.aborted) throw new DeliveryError('abandoned at the end of the run', false);
    throw new DeliveryError(code === 'ETIMEDOUT' ? `no answer within ${Math.round(timeoutMs / 100) / 10}s` : `could not connect (${code ?? (err as Error).message})`, true);
  }
  if (status >= 200 && status < 300) return;
  if (status >= 300 && status < 400) throw new DeliveryError(`answered ${status} (a redirect, not followed)`, false);
  throw new DeliveryError(`answered ${status}`, status === 429 || status >= 500);
}
