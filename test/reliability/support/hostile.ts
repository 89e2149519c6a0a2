/**
 * Hostile surroundings for the real CLI, shared by hardening.test.ts and hardening.faults.ts:
 * kubeconfigs whose exec credential plugin hangs (and leaves a helper holding the pipes) or prints
 * terminal escapes, runbooks with short limits, params files pointed at a stub, a temp folder of
 * the test's own (TMPDIR) to count leftovers in.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT, tempDir, type ServedLab } from './processes.js';

/** The lab's kubeconfig with its user replaced by an exec credential plugin running `script`. */
export function pluginKubeconfig(lab: ServedLab, name: string, script: string): string {
  const dir = tempDir(`plugin-${name}`);
  const plugin = join(dir, `${name}.sh`);
  writeFileSync(plugin, `#!/bin/sh\n${script}\n`);
  chmodSync(plugin, 0o755);
  const config = parse(readFileSync(lab.json.kubeconfig, 'utf8')) as { users: Array<{ user: unknown }> };
  for (const u of config.users) u.user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } };
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, stringify(config));
  return file;
}

/**
 * A plugin that never returns, as a browser-login plugin waiting for a person does; it ignores
 * SIGTERM and starts a helper that holds kubectl's pipes (and ignores SIGTERM too). `marker` names
 * its processes in the process table.
 */
export const HUNG_PLUGIN = (marker: string): string =>
  `trap '' TERM\n(trap '' TERM; exec sh -c 'while :; do sleep 1; done' ${marker}-helper) &\nexec sh -c 'trap "" TERM; while :; do sleep 1; done' ${marker}-plugin`;

/** A plugin that fails after printing what would clear the screen and retitle the terminal. */
export const ESCAPING_PLUGIN = `printf '\\033]0;owned\\007\\033[2J\\033[31mplugin says no\\n' >&2\nexit 1`;

/** The bundled runbook with other `settings:` (the only change). */
export function runbookWithSettings(settings: Record<string, string | number>): string {
  const text = readFileSync(join(ROOT, 'runbooks/vmo-upgrade.yaml'), 'utf8');
  const block = Object.entries(settings).map(([k, v]) => `  ${k}: ${v}`).join('\n');
  const changed = text.replace(/settings:\n(?: {2}.*\n)+/, `settings:\n${block}\n`);
  if (changed === text) throw new Error('the bundled runbook has no settings block to change');
  const file = join(tempDir('runbook'), 'vmo-upgrade.yaml');
  writeFileSync(file, changed);
  return file;
}

/** The lab's params with the profile API (and its clock) behind `url`, and other edits. */
export function paramsVia(lab: ServedLab, url: string, edit: (doc: Record<string, any>) => void = () => undefined): string {
  const doc = parse(readFileSync(lab.json.params, 'utf8')) as Record<string, any>;
  doc.palette.baseUrl = url;
  if (doc.extra?.labClockUrl) doc.extra.labClockUrl = `${url}/_lab/clock`;
  edit(doc);
  const file = join(tempDir('params'), 'params.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}

/** Peak resident set sizes (KiB) the rss-log preload wrote, by run. */
export function peaks(file: string): number[] {
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { maxRssKiB: number }).maxRssKiB);
}
