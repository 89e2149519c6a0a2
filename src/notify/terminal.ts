/**
 * The terminal's own ways to call the operator back: the bell, and the desktop-notification escape
 * of terminals known to support one (OSC 9: iTerm2, WezTerm, Ghostty; OSC 777: VTE terminals such as
 * GNOME Terminal, foot, urxvt; OSC 99: kitty). Unknown terminals get the bell alone. Inside tmux the
 * escape is wrapped for passthrough (tmux drops it unless allow-passthrough is on). Pure.
 */
import { sanitizeText } from '../text/sanitize.js';

export type DesktopEscape = 'osc9' | 'osc777' | 'osc99';

export function desktopEscape(env: NodeJS.ProcessEnv): DesktopEscape | undefined {
  const program = env.TERM_PROGRAM ?? '';
  const term = env.TERM ?? '';
  if (program === 'iTerm.app' || program === 'WezTerm' || program === 'ghostty') return 'osc9';
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'osc99';
  if (env.VTE_VERSION || term.startsWith('foot') || term.includes('rxvt')) return 'osc777';
  return undefined;
}

const BEL = '\u0007';
const ST = '\u001b\\';

/** Text safe inside an escape: no control characters, no `;` (the field separator). */
const field = (s: string, max: number) => sanitizeText(s, { max }).replace(/;/g, ',');

function tmuxWrap(seq: string): string {
  return `\u001bPtmux;${seq.replace(/\u001b/g, '\u001b\u001b')}${ST}`;
}

/** The bell, then the desktop notification where the terminal supports one. */
export function attentionSequence(env: NodeJS.ProcessEnv, title: string, body: string): string {
  const kind = desktopEscape(env);
  const t = field(title, 60);
  const b = field(body, 200);
  const escape = kind === 'osc9' ? `\u001b]9;${t}: ${b}${BEL}` : kind === 'osc777' ? `\u001b]777;notify;${t};${b}${BEL}` : kind === 'osc99' ? `\u001b]99;;${t}: ${b}${ST}` : '';
  if (!escape) return BEL;
  return `${BEL}${env.TMUX ? tmuxWrap(escape) : escape}`;
}

/** A gate rings only after a long stretch without a key: an operator at the keyboard needs no bell. */
export const unattended = (lastKeyAt: number, now: number, afterMs: number): boolean => now - lastKeyAt >= afterMs;
