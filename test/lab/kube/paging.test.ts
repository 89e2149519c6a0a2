import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue, paginate, parseLimit } from '../../../src/lab/kube/paging.js';
import { KubeStatusException } from '../../../src/lab/kube/status.js';

const items = (...keys: string[]): Array<{ key: string }> => keys.map((key) => ({ key }));

function collect(list: Array<{ key: string }>, limit: number, scope = 's'): string[][] {
  const pages: string[][] = [];
  let token: string | undefined;
  do {
    const page = paginate(list, { scope, limit, ...(token ? { continueToken: token } : {}) });
    pages.push(page.items.map((i) => i.key));
    token = page.continue;
  } while (token);
  return pages;
}

describe('paging', () => {
  it('returns everything without a limit', () => {
    const page = paginate(items('a', 'b', 'c'), { scope: 's' });
    expect(page.items.map((i) => i.key)).toEqual(['a', 'b', 'c']);
    expect(page.continue).toBeUndefined();
    expect(page.remaining).toBeUndefined();
  });

  it('walks pages with continue tokens and counts what remains', () => {
    const list = items('a', 'b', 'c', 'd', 'e');
    expect(collect(list, 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const first = paginate(list, { scope: 's', limit: 2 });
    expect(first.remaining).toBe(3);
  });

  it('has no continue token when the limit exactly covers the list', () => {
    const page = paginate(items('a', 'b'), { scope: 's', limit: 2 });
    expect(page.continue).toBeUndefined();
  });

  it('continues after the last key served even when the list changed in between', () => {
    const first = paginate(items('a', 'b', 'c', 'd'), { scope: 's', limit: 2 });
    // `b` was deleted and `bb` created after the first page.
    const next = paginate(items('a', 'bb', 'c', 'd'), { scope: 's', limit: 2, continueToken: first.continue! });
    expect(next.items.map((i) => i.key)).toEqual(['bb', 'c']);
  });

  it('makes opaque tokens that round-trip and refuse another list', () => {
    const token = encodeContinue('pods\u0000ns', 'ns/p1');
    expect(token).not.toContain('ns/p1');
    expect(decodeContinue(token, 'pods\u0000ns')).toBe('ns/p1');
    expect(() => decodeContinue(token, 'nodes')).toThrow(KubeStatusException);
  });

  it.each(['garbage', Buffer.from('{"v":2}').toString('base64url'), ''])('refuses the token %j with 400', (token) => {
    const attempt = (): unknown => (token === '' ? decodeContinue(token, 's') : paginate(items('a'), { scope: 's', continueToken: token }));
    expect(attempt).toThrow(KubeStatusException);
  });

  it.each([
    [null, undefined],
    ['', undefined],
    ['0', undefined],
    ['-1', undefined],
    ['500', 500],
  ])('parses limit %j as %j', (raw, expected) => {
    expect(parseLimit(raw)).toBe(expected);
  });

  it('refuses a limit that is not a number', () => {
    expect(() => parseLimit('ten')).toThrow(KubeStatusException);
  });
});
