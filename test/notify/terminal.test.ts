import { describe, expect, it } from 'vitest';
import { attentionSequence, desktopEscape, unattended } from '../../src/notify/terminal.js';

describe('the terminal’s own call for attention', () => {
  it.each([
    [{ TERM_PROGRAM: 'iTerm.app' }, 'osc9'],
    [{ TERM_PROGRAM: 'WezTerm' }, 'osc9'],
    [{ TERM_PROGRAM: 'ghostty' }, 'osc9'],
    [{ TERM: 'xterm-kitty' }, 'osc99'],
    [{ VTE_VERSION: '7600', TERM: 'xterm-256color' }, 'osc777'],
    [{ TERM: 'foot' }, 'osc777'],
    [{ TERM: 'rxvt-unicode-256color' }, 'osc777'],
    [{ TERM: 'xterm-256color' }, undefined],
    [{ TERM: 'screen-256color', TMUX: '/tmp/tmux-0/default,1,0' }, undefined],
  ])('%j → %s', (env, expected) => {
    expect(desktopEscape(env)).toBe(expected);
  });

  it('rings the bell, then the notification the terminal knows, with text that cannot break out of it', () => {
    expect(attentionSequence({ TERM: 'xterm-256color' }, 'upgrade-pilot', 'gate')).toBe('\u0007');
    expect(attentionSequence({ TERM_PROGRAM: 'iTerm.app' }, 'upgrade-pilot: c1', 'waiting for you: Restart VM a/b')).toBe('\u0007\u001b]9;upgrade-pilot: c1: waiting for you: Restart VM a/b\u0007');
    expect(attentionSequence({ VTE_VERSION: '7600' }, 'up; x', 'evil\u0007\u001b]0;t\u0007; body')).toBe('\u0007\u001b]777;notify;up, x;evil, body\u0007');
    expect(attentionSequence({ TERM: 'xterm-kitty' }, 't', 'b')).toBe('\u0007\u001b]99;;t: b\u001b\\');
    // Inside tmux the escape is wrapped for passthrough, its own ESCs doubled.
    expect(attentionSequence({ TERM_PROGRAM: 'WezTerm', TMUX: '1' }, 't', 'b')).toBe('\u0007\u001bPtmux;\u001b\u001b]9;t: b\u0007\u001b\\');
  });

  it('rings only after a long stretch without a key', () => {
    expect(unattended(0, 119_999, 120_000)).toBe(false);
    expect(unattended(0, 120_000, 120_000)).toBe(true);
  });
});
