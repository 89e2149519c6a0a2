/** A certificate the client refuses is said as what it is (the host does not match, not trusted, expired), never "cannot reach". */
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/errors.js';
import { networkError } from '../../src/palette/errors.js';

const call = { baseUrl: 'https://palette.example.com', method: 'GET', path: '/v1/clusterprofiles/p1', timeoutMs: 30_000, mutation: true } as Parameters<typeof networkError>[0];

describe('networkError for TLS codes', () => {
  it.each([
    ['ERR_TLS_CERT_ALTNAME_INVALID', /its TLS certificate does not match the host palette\.example\.com\. Nothing was sent\./, /address the certificate names/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /not signed by an authority this machine trusts \(DEPTH_ZERO_SELF_SIGNED_CERT\)/, /NODE_EXTRA_CA_CERTS/],
    ['CERT_HAS_EXPIRED', /has expired or is not yet valid/, /clock/],
  ])('%s', (code, message, hint) => {
    const err = networkError(call, code, 1, true);
    expect(err.code).toBe('palette.tls');
    expect(err.message).toMatch(message);
    expect(err.message).not.toMatch(/Cannot reach/);
    expect(err.hint).toMatch(hint);
    // Refused in the handshake: nothing reached the API, even for a mutation.
    expect(err.mayHaveApplied).toBe(false);
    expect(exitCodeOf(err)).toBe(4);
  });

  it('a refused connection is still "cannot reach"', () => {
    expect(networkError(call, 'ECONNREFUSED', 3, false).message).toMatch(/^Cannot reach the profile API at https:\/\/palette\.example\.com .*connection refused/);
  });
});
