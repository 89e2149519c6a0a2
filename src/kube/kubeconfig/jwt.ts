/**
 * The expiry written inside a JWT (`exp`, seconds since the epoch), read without verifying the
 * signature: the question is only "until when will the server take it", not "is it genuine".
 */
export type JwtExpiry = { kind: 'expires'; at: number } | { kind: 'no-exp' } | { kind: 'not-jwt' };

export function jwtExpiry(token: string): JwtExpiry {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || !parts[1]) return { kind: 'not-jwt' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return { kind: 'not-jwt' };
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { kind: 'not-jwt' };
  const exp = (payload as { exp?: unknown }).exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? { kind: 'expires', at: exp * 1000 } : { kind: 'no-exp' };
}
