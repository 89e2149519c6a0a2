import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { notifies, notifyConfig, shownUrl } from '../../src/notify/config.js';
import { splitWords } from '../../src/notify/words.js';

const params = (over: Record<string, unknown> = {}) => ({ webhooks: [], rehearsal: false, allowHttp: false, timeout: 5_000, bellAfter: 120_000, bell: true, ...over });

describe('notification targets', () => {
  it.each([
    ['https://hooks.slack.com/services/T0/B0/secret', false, 'ok'],
    ['http://127.0.0.1:8080/hook', false, 'ok'],
    ['http://localhost/hook', false, 'ok'],
    ['http://[::1]:9000/hook', false, 'ok'],
    ['http://hooks.example.com/hook', false, /plain http to another machine; notifications go only over https there/],
    ['http://10.0.0.5/hook', false, /plain http/],
    ['http://hooks.example.com/hook', true, 'ok'],
    ['ftp://hooks.example.com/hook', false, /is not an http\(s\) URL/],
    ['not a url', false, /the value given is not a URL/],
  ])('--notify %s (allow http: %s): %s', (url, allowHttp, expected) => {
    const run = () => notifyConfig({ notify: [url], 'notify-allow-http': allowHttp }, undefined);
    if (expected === 'ok') expect(run().webhooks.map((u) => u.href)).toEqual([new URL(url).href]);
    else expect(run).toThrow(expected);
  });

  it('errors never show a webhook’s path (it is the secret), and name the switch that allows http', () => {
    try {
      notifyConfig({ notify: ['http://hooks.example.com/services/T0/B0/very-secret'] }, undefined);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).not.toContain('very-secret');
      expect((err as InputError).hint).toMatch(/--notify-allow-http .*notify\.allowHttp: true/);
    }
    expect(shownUrl('https://hooks.slack.com/services/T0/B0/very-secret')).toBe('https://hooks.slack.com/…');
  });

  it('merges the flags with the params (duplicates once), parses the command without a shell, and bounds the time', () => {
    const c = notifyConfig(
      { notify: ['https://a.example/hook'], 'notify-command': '/usr/local/bin/page-oncall --team "vm ops"' },
      params({ webhooks: ['https://a.example/hook', 'https://b.example/hook'], timeout: 2_000 }),
    );
    expect(c.webhooks.map((u) => u.host)).toEqual(['a.example', 'b.example']);
    expect(c.command).toEqual(['/usr/local/bin/page-oncall', '--team', 'vm ops']);
    expect(c).toMatchObject({ attemptMs: 2_000, totalMs: 5_000, bellAfterMs: 120_000, rehearsal: false });
    expect(notifyConfig({}, params({ bell: false })).bellAfterMs).toBeUndefined();
  });

  it.each([
    ['page-oncall', ['page-oncall']],
    ["notify --to 'a b' \"c \\\"d\\\"\" e\\ f", ['notify', '--to', 'a b', 'c "d"', 'e f']],
    ['echo $(rm -rf /) `id` $HOME *', ['echo', '$(rm', '-rf', '/)', '`id`', '$HOME', '*']],
    ["x ''", ['x', '']],
  ])('splits %j into words without a shell', (line, words) => {
    expect(splitWords(line)).toEqual(words);
  });

  it.each([['page "oncall'], ['   ']])('refuses the command %j', (line) => {
    expect(() => notifyConfig({ 'notify-command': line }, undefined)).toThrow(InputError);
  });

  it('a rehearsal notifies only when asked', () => {
    const c = notifyConfig({ notify: ['https://a.example/hook'] }, undefined);
    expect(notifies(c, false)).toBe(true);
    expect(notifies(c, true)).toBe(false);
    expect(notifies(notifyConfig({ notify: ['https://a.example/hook'], 'notify-rehearsal': true }, undefined), true)).toBe(true);
    expect(notifies(notifyConfig({}, params({ rehearsal: true, command: 'true' })), true)).toBe(true);
    expect(notifies(notifyConfig({}, undefined), false)).toBe(false);
  });
});
