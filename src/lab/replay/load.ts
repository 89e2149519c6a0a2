/**
 * Reading a capture to replay it: bounded (the file and, for a gzip one, what it unpacks to), the
 * format and its version checked before anything else (a capture written by a tool whose format
 * differs is refused, naming both versions), then every part checked for the shape the replay
 * serves. Anything wrong is bad input (exit 2) that says what is wrong and what to do; nothing is
 * served from a file that does not pass.
 */
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { CAPTURE_FORMAT, CAPTURE_FORMAT_VERSION, type CaptureDocument } from '../../capture/types.js';
import { InputError } from '../../errors.js';
import { readBoundedFile } from '../../io/bounded-read.js';
import { CAPTURE_LIMIT_BYTES, formatBytes } from '../../io/limits.js';
import { describeIssues } from '../../palette/issues.js';
import { toolVersion } from '../../version.js';

const KubeObject = z.looseObject({ metadata: z.looseObject({ name: z.string().min(1), namespace: z.string().optional() }) });

const CaptureSchema = z.looseObject({
  manifest: z.looseObject({
    tool: z.looseObject({ version: z.string() }),
    capturedAt: z.iso.datetime(),
    clusterTime: z.iso.datetime(),
    cluster: z.looseObject({ uid: z.string().min(1), name: z.string().optional() }),
    kube: z.looseObject({ serverVersion: z.string() }),
    palette: z.looseObject({ flavor: z.enum(['spec', 'palette']), projectUid: z.string().min(1) }),
    verifySince: z.looseObject({ at: z.iso.datetime().optional(), source: z.string() }).optional(),
  }),
  params: z.looseObject({
    profiles: z.looseObject({ addon: z.looseObject({ uid: z.string() }), infra: z.looseObject({ uid: z.string() }) }),
    cluster: z.looseObject({ uid: z.string() }),
  }),
  kube: z.looseObject({
    resources: z.record(z.string(), z.looseObject({ group: z.string(), version: z.string().min(1), resource: z.string().min(1), objects: z.array(KubeObject) })),
    logs: z.array(z.looseObject({ namespace: z.string(), pod: z.string(), container: z.string(), text: z.string() })),
    absent: z.array(z.looseObject({ path: z.string(), failure: z.string() })),
  }),
  palette: z.looseObject({ answers: z.array(z.looseObject({ method: z.enum(['GET', 'POST']).optional(), path: z.string().startsWith('/'), status: z.number().int(), body: z.unknown() })) }),
  values: z.record(z.string().regex(/^[^/]+\/[^/]+\.ya?ml$/), z.string()),
});

const damaged = (file: string, why: string) =>
  new InputError('replay.damaged', `${file} cannot be replayed: ${why}.`, { hint: 'Pass the file `upgrade-pilot capture` wrote, whole (a copy cut short or edited by hand is refused); capture the site again if it is lost.', where: file });

/** The text of the file: gzip (by its magic bytes, whatever its name) unpacked within the cap. */
function textOf(file: string): string {
  const raw = readBoundedFile(file, { what: 'capture', maxBytes: CAPTURE_LIMIT_BYTES, tooLargeHint: `A capture is at most ${formatBytes(CAPTURE_LIMIT_BYTES)}; pass the file \`upgrade-pilot capture\` wrote.` });
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      return gunzipSync(raw, { maxOutputLength: CAPTURE_LIMIT_BYTES }).toString('utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw damaged(file, code === 'ERR_BUFFER_TOO_LARGE' ? `it unpacks to more than ${formatBytes(CAPTURE_LIMIT_BYTES)}` : `its gzip data is damaged or cut short (${(err as Error).message})`);
    }
  }
  return raw.toString('utf8');
}

export function loadCapture(file: string): CaptureDocument {
  let json: unknown;
  try {
    json = JSON.parse(textOf(file));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw damaged(file, `it is not valid JSON (${(err as Error).message.slice(0, 200)})`);
  }
  const head = json as { format?: unknown; formatVersion?: unknown; manifest?: { tool?: { version?: unknown } } } | null;
  if (head === null || typeof head !== 'object' || head.format !== CAPTURE_FORMAT) {
    throw new InputError('replay.not-a-capture', `${file} is not an upgrade-pilot capture (its "format" is not "${CAPTURE_FORMAT}").`, { hint: 'Pass a file written by `upgrade-pilot capture --out FILE`.', where: file });
  }
  if (head.formatVersion !== CAPTURE_FORMAT_VERSION) {
    const by = typeof head.manifest?.tool?.version === 'string' ? head.manifest.tool.version.slice(0, 40) : 'an unknown version';
    const theirs = typeof head.formatVersion === 'number' ? head.formatVersion : NaN;
    const newer = theirs > CAPTURE_FORMAT_VERSION;
    throw new InputError('replay.format-version', `${file} was written by upgrade-pilot ${by} in capture format ${String(head.formatVersion).slice(0, 20)}; this upgrade-pilot (${toolVersion}) replays format ${CAPTURE_FORMAT_VERSION} only.`, {
      hint: newer ? `Replay it with upgrade-pilot ${by} or newer, or capture the site again with this version.` : 'Capture the site again with this version (upgrade-pilot capture --params FILE --out FILE).',
      where: file,
    });
  }
  const parsed = CaptureSchema.safeParse(json);
  if (!parsed.success) throw damaged(file, `it does not have the shape of a capture (${describeIssues(parsed.error.issues).slice(0, 500)})`);
  return json as CaptureDocument;
}
