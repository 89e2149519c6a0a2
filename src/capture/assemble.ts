/**
 * The capture document: the manifest first (what the file is, what each part is and how it was
 * read), then the parts. Pure over what the recorder built.
 */
import { CAPTURE_FORMAT, CAPTURE_FORMAT_VERSION, type CaptureManifest, type PassRecord } from './types.js';
import type { CaptureRecorder } from './recorder.js';

export interface AssembleInput {
  built: ReturnType<CaptureRecorder['build']>;
  passes: PassRecord[];
  params: Record<string, unknown>;
  values: Record<string, string>;
  meta: Omit<CaptureManifest, 'passes' | 'parts' | 'redactions' | 'notes'>;
}

/** What a replay of this capture does and does not know: said in the file, for whoever opens it. */
export const REPLAY_NOTES = [
  'A replay (upgrade-pilot lab --replay FILE) answers every read recorded here as the site did: the Kubernetes objects through the lab\'s API server (selectors, paging, tables), the profile API answers as they were served.',
  'A read the capture did not make gets what the capture holds: a list is the objects recorded that match, a log not read is empty, a profile API path not read is 404.',
  'The replay is frozen and read-only: every change (a profile PUT, a publish, a clone, an apply, a migration delete, a VM restart) is refused and nothing changes; rehearse against it, do not start an upgrade.',
  'Secrets are never read. Credentials the objects carry (environment values, cloud-init data, secret-looking annotations and arguments, last-applied-configuration), the API key and the cluster credentials are redacted: see redactions.',
];

export function assembleCapture(input: AssembleInput): Record<string, unknown> {
  const { built } = input;
  const manifest: CaptureManifest = {
    ...input.meta,
    passes: input.passes,
    parts: [
      ...built.parts,
      { part: 'params', what: 'The site parameters the reads used (no notification targets, no local paths)', count: 1, reads: [], passes: [] },
      ...(Object.keys(input.values).length ? [{ part: 'values', what: "The values folder's default values files (valuesDir)", count: Object.keys(input.values).length, reads: Object.keys(input.values), passes: ['plan', 'diff', 'verify'] }] : []),
    ],
    redactions: built.redactions,
    notes: REPLAY_NOTES,
  };
  return {
    format: CAPTURE_FORMAT,
    formatVersion: CAPTURE_FORMAT_VERSION,
    manifest,
    params: input.params,
    kube: built.kube,
    palette: built.palette,
    values: input.values,
  };
}
