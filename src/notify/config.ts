/**
 * Where notifications go, from the command line (`--notify`, `--notify-command`, ...) and the params
 * file (`notify:`), checked before the run starts: a webhook must be https unless it is on this
 * machine or plain http is explicitly allowed (the message would cross the network readable, and a
 * webhook URL is itself a credential). Pure.
 */
import type { Params } from '../engine/params.js';
import { InputError } from '../errors.js';
import { splitWords } from './words.js';

export interface NotifyConfig {
  webhooks: URL[];
  /** Program and arguments, run without a shell. */
  command?: string[];
  /** Notify in a rehearsal (off unless asked). */
  rehearsal: boolean;
  /** Longest wait for one delivery attempt. */
  attemptMs: number;
  /** Longest time one message may take over all its attempts (and the end of the run waits for it). */
  totalMs: number;
  /** Ring the TUI bell for a gate after this long without a key; undefined: never. */
  bellAfterMs?: number;
}

export interface NotifyFlags {
  notify?: string[];
  'notify-command'?: string;
  'notify-rehearsal'?: boolean;
  'notify-allow-http'?: boolean;
}

/** A URL as it may be shown: scheme and host only (the path of a Slack or Teams webhook is its secret). */
export function shownUrl(url: URL | string): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return 'an unreadable URL';
  }
}

const loopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

export function checkWebhook(raw: string, allowHttp: boolean, from: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: a webhook URL carries its secret in the path.
    throw new InputError('notify.url', `${from}: the value given is not a URL.`, { hint: 'Give the webhook’s full https:// address.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError('notify.url', `${from}: ${shownUrl(url)} is not an http(s) URL.`, { hint: 'Give the webhook’s full https:// address.' });
  }
  if (url.protocol === 'http:' && !loopback(url.hostname) && !allowHttp) {
    throw new InputError('notify.url', `${from}: ${shownUrl(url)} is plain http to another machine; notifications go only over https there.`, {
      hint: 'Use the https:// address, or accept plain http explicitly with --notify-allow-http (params: notify.allowHttp: true).',
    });
  }
  return url;
}

function commandWords(text: string): string[] {
  const hint = 'Give a program and its arguments, quoted as in a shell, e.g. --notify-command \'/usr/local/bin/page-oncall --team "vm ops"\'.';
  let words: string[];
  try {
    words = splitWords(text);
  } catch (err) {
    throw new InputError('notify.command', `--notify-command has ${(err as Error).message}.`, { hint });
  }
  if (words.length === 0) throw new InputError('notify.command', '--notify-command is empty.', { hint });
  return words;
}

export function notifyConfig(flags: NotifyFlags, params: Params['notify'] | undefined): NotifyConfig {
  const allowHttp = Boolean(flags['notify-allow-http'] || params?.allowHttp);
  const webhooks = [...(flags.notify ?? []).map((u) => checkWebhook(u, allowHttp, '--notify')), ...(params?.webhooks ?? []).map((u) => checkWebhook(u, allowHttp, 'params notify.webhooks'))];
  const commandText = flags['notify-command'] ?? params?.command;
  const command = commandText === undefined ? undefined : commandWords(commandText);
  const attemptMs = params?.timeout ?? 5_000;
  return {
    webhooks: [...new Map(webhooks.map((u) => [u.href, u])).values()],
    ...(command?.length ? { command } : {}),
    rehearsal: Boolean(flags['notify-rehearsal'] || params?.rehearsal),
    attemptMs,
    totalMs: 2 * attemptMs + 1_000,
    ...(params?.bell === false ? {} : { bellAfterMs: params?.bellAfter ?? 120_000 }),
  };
}

/** Whether this run notifies at all. */
export const notifies = (c: NotifyConfig, rehearsal: boolean): boolean => (c.webhooks.length > 0 || c.command !== undefined) && (!rehearsal || c.rehearsal);
