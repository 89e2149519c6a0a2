/**
 * The profile API's failures as typed errors, each with a message an operator can act on and a
 * hint that says what to do. Environment failures (unreachable, unauthorized, server errors) exit 4;
 * a payload the API refused (400/422) is bad input, exit 2. None of them ever holds the API key:
 * messages are built here from known parts, passed through the redactor, and the HTTP library's
 * error (whose options carry the request headers) is never attached as a cause.
 */
import { EnvironmentError, InputError } from '../errors.js';
import type { ErrorBody } from './schemas.js';

export interface PaletteFailure {
  /** HTTP status, when the API answered. */
  status?: number;
  /** The API's error code (`ResourceNotFound`, ...) and request reference, when it sent them. */
  apiCode?: string;
  ref?: string;
  /**
   * Whether a mutation may have taken effect despite the failure (a lost answer, a 5xx, a timeout).
   * When true, read the profile before sending again; when false the API certainly refused it.
   */
  mayHaveApplied: boolean;
  /**
   * Set on a 429 (or a 503 with Retry-After) of a call that was not retried: the API said "not now",
   * so the request was not applied and may be sent again after this long (see engine/runner.ts).
   */
  retryAfterMs?: number;
}

type Opts = { hint: string; where: string; resumable?: boolean } & PaletteFailure;

export class PaletteApiError extends EnvironmentError implements PaletteFailure {
  readonly status?: number;
  readonly apiCode?: string;
  readonly ref?: string;
  readonly mayHaveApplied: boolean;
  readonly retryAfterMs?: number;

  constructor(code: string, message: string, opts: Opts) {
    super(code, message, { hint: opts.hint, where: opts.where, ...(opts.resumable === false ? { resumable: false } : {}) });
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.apiCode !== undefined) this.apiCode = opts.apiCode;
    if (opts.ref !== undefined) this.ref = opts.ref;
    this.mayHaveApplied = opts.mayHaveApplied;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }
}

/** The API refused the payload itself (400, 422): what was built from the inputs is wrong. */
export class PaletteRefusedError extends InputError implements PaletteFailure {
  readonly status?: number;
  readonly apiCode?: string;
  readonly ref?: string;
  readonly mayHaveApplied = false;

  constructor(message: string, opts: Omit<Opts, 'mayHaveApplied'>) {
    super('palette.refused', message, { hint: opts.hint, where: opts.where });
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.apiCode !== undefined) this.apiCode = opts.apiCode;
    if (opts.ref !== undefined) this.ref = opts.ref;
  }
}

/** What the error factory needs to know about the call; `notFound` says what a 404 means for it. */
export interface CallInfo {
  method: string;
  path: string;
  baseUrl: string;
  projectUid: string;
  timeoutMs: number;
  notFound?: { message: string; hint: string };
  mutation: boolean;
}

const where = (call: CallInfo) => `${call.method} ${call.path}`;
const apiDetail = (body: ErrorBody | undefined) =>
  [body?.code && `code ${body.code}`, body?.message && `"${body.message}"`, body?.ref && `ref ${body.ref}`].filter(Boolean).join(', ');
const fromBody = (status: number, body: ErrorBody | undefined) => ({
  status,
  ...(body?.code !== undefined ? { apiCode: body.code } : {}),
  ...(body?.ref !== undefined ? { ref: body.ref } : {}),
});
/** The error code a replay of a capture (lab --replay) answers every change with. */
export const REPLAY_READ_ONLY = 'ReplayIsReadOnly';

const settleHint = 'The request may have reached the API; upgrade-pilot reads the profile to find out before sending it again.';

export function statusError(call: CallInfo, status: number, body: ErrorBody | undefined, attempts: number, deferred: { retryAfterMs?: number } = {}): PaletteApiError | PaletteRefusedError {
  const at = where(call);
  const detail = apiDetail(body);
  const suffix = detail ? ` (${detail})` : '';
  if (status === 401) {
    return new PaletteApiError('palette.unauthorized', `The profile API at ${call.baseUrl} did not accept the API key (401 Unauthorized) on ${at}.`, {
      hint: 'Check that UPGRADE_PILOT_API_KEY (or the --api-key-file) holds a valid, unexpired Palette API key for this tenant.',
      where: at,
      mayHaveApplied: false,
      ...fromBody(status, body),
    });
  }
  if (status === 403) {
    return new PaletteApiError('palette.forbidden', `The API key has no access to project ${call.projectUid} (403 Forbidden) on ${at}${suffix}.`, {
      hint: 'Check palette.projectUid in the params file, and that the key belongs to a user with cluster profile rights in that project.',
      where: at,
      mayHaveApplied: false,
      ...fromBody(status, body),
    });
  }
  if (status === 404) {
    const nf = call.notFound ?? { message: `Nothing was found at ${call.path}`, hint: 'Check the uids in the params file.' };
    return new PaletteApiError('palette.not-found', `${nf.message} (404 on ${at}${suffix}).`, { hint: nf.hint, where: at, mayHaveApplied: false, ...fromBody(status, body) });
  }
  if (status === 429) {
    return new PaletteApiError('palette.rate-limited', `The profile API kept answering 429 Too Many Requests on ${at} (${attempts} attempt${attempts === 1 ? '' : 's'}).`, {
      hint: 'The API is rate limiting this key. Wait a minute, then resume the session; nothing was lost.',
      where: at,
      mayHaveApplied: false,
      ...deferred,
      ...fromBody(status, body),
    });
  }
  if (status === 503 && deferred.retryAfterMs !== undefined) {
    return new PaletteApiError('palette.unavailable', `The profile API answered 503 Service Unavailable on ${at}${suffix}, asking to come back in ${Math.ceil(deferred.retryAfterMs / 1000)}s.`, {
      hint: 'The API is overloaded or in maintenance and did not take the request. Resume the session later; nothing was lost.',
      where: at,
      mayHaveApplied: false,
      ...deferred,
      ...fromBody(status, body),
    });
  }
  if (status === 400 || status === 422) {
    return new PaletteRefusedError(`The profile API refused the request ${at} as invalid (${status}${detail ? `, ${detail}` : ''}).`, {
      hint: 'The payload built from the params and the profile is not acceptable to the API; check the version label and the pack values named in the message.',
      where: at,
      ...fromBody(status, body),
    });
  }
  if (status >= 500) {
    return new PaletteApiError('palette.server-error', `The profile API failed with ${status} on ${at}${suffix} after ${attempts} attempt${attempts === 1 ? '' : 's'}.`, {
      hint: call.mutation ? settleHint : `A server-side problem at ${call.baseUrl}; resume later. If it persists, give Palette support the ref above.`,
      where: at,
      mayHaveApplied: call.mutation,
      ...fromBody(status, body),
    });
  }
  if (status === 405 && body?.code === REPLAY_READ_ONLY) {
    // The lab serving a capture (lab --replay): frozen by design. That is what to say first, not the base URL.
    return new PaletteApiError('palette.replay-read-only', `This is a replay of a capture: read-only. ${at} was refused (405 ${REPLAY_READ_ONLY}), as every change is; nothing was changed.`, {
      hint: 'A replay takes no changes, so a resume would be refused the same way. Walk the runbook on it as a rehearsal instead (every read real, nothing sent): upgrade-pilot rehearse --params <the same params file>.',
      where: at,
      mayHaveApplied: false,
      resumable: false,
      ...fromBody(status, body),
    });
  }
  if (status === 405) {
    // A server that takes no changes at this address.
    return new PaletteApiError('palette.not-allowed', `The profile API does not accept ${at}: 405 Method Not Allowed${suffix}.`, {
      hint: 'Nothing was changed. Check palette.baseUrl points at the Palette API itself.',
      where: at,
      mayHaveApplied: false,
      ...fromBody(status, body),
    });
  }
  const conflict = status === 409;
  return new PaletteApiError(conflict ? 'palette.conflict' : 'palette.request-failed', `The profile API answered ${status} on ${at}${suffix}.`, {
    hint: conflict ? 'The profile is not in the state this step expected (for a publish: there is no draft). Read the profile to see where it stands.' : 'Unexpected answer; check palette.baseUrl points at the Palette API.',
    where: at,
    mayHaveApplied: false,
    ...fromBody(status, body),
  });
}

/** Node's codes for a TLS handshake this machine refused: nothing was sent, the network is not the cause. */
const TLS_UNTRUSTED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_UNTRUSTED']);
export const isTlsCode = (code: string): boolean => code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID' || TLS_UNTRUSTED.has(code);

/** A certificate problem said as one: which, and what to do (never "cannot reach"). */
function tlsError(call: CallInfo, code: string, at: string): PaletteApiError | undefined {
  if (!isTlsCode(code)) return undefined;
  const host = (() => {
    try {
      return new URL(call.baseUrl).host;
    } catch {
      return call.baseUrl;
    }
  })();
  const [what, hint] =
    code === 'ERR_TLS_CERT_ALTNAME_INVALID'
      ? [`its TLS certificate does not match the host ${host}`, 'Use the address the certificate names in palette.baseUrl. If a proxy answers in front of the API with its own certificate, reach the API directly or through the proxy name its certificate holds.']
      : code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID'
        ? [`its TLS certificate has expired or is not yet valid (${code})`, "Check this machine's clock; if it is right, the API's certificate must be renewed."]
        : [`its TLS certificate is not signed by an authority this machine trusts (${code})`, 'If a TLS-inspecting proxy sits in between, add its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise check palette.baseUrl.'];
  return new PaletteApiError('palette.tls', `The profile API at ${call.baseUrl} was not trusted for ${at}: ${what}. Nothing was sent.`, { hint, where: at, mayHaveApplied: false });
}

/** Connection-level failures: `code` is Node's (ECONNREFUSED, ECONNRESET, ETIMEDOUT, ...). */
export function networkError(call: CallInfo, code: string, attempts: number, sent: boolean): PaletteApiError {
  const at = where(call);
  const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  const ambiguous = call.mutation && sent;
  if (code === 'ETIMEDOUT') {
    return new PaletteApiError('palette.timeout', `The profile API at ${call.baseUrl} did not answer ${at} within ${call.timeoutMs} ms (${tries}).`, {
      hint: ambiguous ? settleHint : 'Check the network path to the API, or raise palette.timeout in the params file.',
      where: at,
      mayHaveApplied: ambiguous,
    });
  }
  const tls = tlsError(call, code, at);
  if (tls) return tls;
  const why = code === 'ECONNRESET' ? 'the connection was closed without an answer' : code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'the host name does not resolve' : code;
  return new PaletteApiError('palette.unreachable', `Cannot reach the profile API at ${call.baseUrl} for ${at}: ${why} (${tries}).`, {
    hint: ambiguous ? settleHint : 'Check palette.baseUrl in the params file, the network, VPN or proxy, and that the API is up.',
    where: at,
    mayHaveApplied: ambiguous,
  });
}

/** An answer larger than the cap (palette.maxResponse): a runaway server, or the wrong base URL. */
export function tooLargeError(call: CallInfo, cap: string): PaletteApiError {
  const at = where(call);
  return new PaletteApiError('palette.too-large', `The profile API's answer to ${at} is larger than ${cap}; it was not read.`, {
    hint: `Check that palette.baseUrl points at the Palette API. If an answer really is that large, raise palette.maxResponse in the params file.${call.mutation ? ` ${settleHint}` : ''}`,
    where: at,
    mayHaveApplied: call.mutation,
  });
}

/** An answer that does not have the shape the tool relies on: which field, at which path, from which call. */
export function badResponse(call: CallInfo, detail: string): PaletteApiError {
  const at = where(call);
  return new PaletteApiError('palette.bad-response', `${at}: ${detail}`, {
    hint: `The API at ${call.baseUrl} answered with a shape upgrade-pilot does not understand. Check that palette.baseUrl points at the Palette API; if it does, report this message.`,
    where: at,
    mayHaveApplied: false,
  });
}
