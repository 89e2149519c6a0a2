/**
 * A capture is replayed only when it is whole and of this version's format: a damaged file, a
 * file that is no capture, and one written in another format are refused with exit 2, saying what
 * is wrong and what to do.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CAPTURE_FORMAT, CAPTURE_FORMAT_VERSION } from '../../../src/capture/types.js';
import { ExitCode, exitCodeOf } from '../../../src/errors.js';
import { loadCapture } from '../../../src/lab/replay/load.js';

function minimalCapture(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: CAPTURE_FORMAT,
    formatVersion: CAPTURE_FORMAT_VERSION,
    manifest: {
      tool: { name: 'upgrade-pilot', version: '0.1.0' },
      capturedAt: '2026-01-02T03:04:05.000Z',
      clusterTime: '2026-01-02T03:04:05.000Z',
      cluster: { uid: 'c1', name: 'site' },
      kube: { serverVersion: 'v1.32.4' },
      palette: { flavor: 'spec', projectUid: 'p1' },
    },
    params: { cluster: { uid: 'c1' }, profiles: { addon: { uid: 'a' }, infra: { uid: 'i' } } },
    kube: { version: { gitVersion: 'v1.32.4' }, resources: { nodes: { group: '', version: 'v1', resource: 'nodes', objects: [{ metadata: { name: 'n1' } }] } }, logs: [], absent: [] },
    palette: { answers: [] },
    values: {},
    ...over,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'up-replay-load-'));
let n = 0;
const file = (content: string | Buffer, name = `c${n++}.json`) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

function refusal(path: string): { code: number; message: string; hint: string } {
  try {
    loadCapture(path);
  } catch (err) {
    return { code: exitCodeOf(err), message: (err as Error).message, hint: (err as { hint?: string }).hint ?? '' };
  }
  throw new Error('expected a refusal');
}

describe('reading a capture to replay it', () => {
  it('reads plain and gzip files, whatever their names', () => {
    const text = JSON.stringify(minimalCapture());
    expect(loadCapture(file(text)).manifest.cluster.uid).toBe('c1');
    expect(loadCapture(file(gzipSync(text), 'no-extension')).kube.resources.nodes!.objects).toHaveLength(1);
  });

  it.each([
    ['cut short', () => file(JSON.stringify(minimalCapture()).slice(0, 100)), /cannot be replayed: it is not valid JSON/],
    ['a gzip cut short', () => file(gzipSync(JSON.stringify(minimalCapture())).subarray(0, 40), 'x.gz'), /cannot be replayed: its gzip data is damaged or cut short/],
    ['not a capture', () => file('{"kind":"Config"}'), /is not an upgrade-pilot capture/],
    ['a part of the wrong shape', () => file(JSON.stringify(minimalCapture({ kube: { resources: { nodes: { objects: 'x' } }, logs: [], absent: [] } }))), /does not have the shape of a capture \(kube\.resources\.nodes/],
    ['an object without a name', () => file(JSON.stringify(minimalCapture({ kube: { resources: { nodes: { group: '', version: 'v1', resource: 'nodes', objects: [{ metadata: {} }] } }, logs: [], absent: [] } }))), /metadata\.name/],
    ['an empty file', () => file(''), /not valid JSON/],
  ])('%s: exit 2, saying what is wrong', (_name, make, message) => {
    const r = refusal(make());
    expect(r.code).toBe(ExitCode.usage);
    expect(r.message).toMatch(message);
    expect(r.hint).toMatch(/capture/);
  });

  it('a capture in a newer format names the version that wrote it and what to do', () => {
    const r = refusal(file(JSON.stringify(minimalCapture({ formatVersion: CAPTURE_FORMAT_VERSION + 1, manifest: { tool: { version: '9.0.0' } } }))));
    expect(r.code).toBe(ExitCode.usage);
    expect(r.message).toMatch(new RegExp(`written by upgrade-pilot 9\\.0\\.0 in capture format ${CAPTURE_FORMAT_VERSION + 1}; this upgrade-pilot \\(.+\\) replays format ${CAPTURE_FORMAT_VERSION} only`));
    expect(r.hint).toMatch(/Replay it with upgrade-pilot 9\.0\.0 or newer/);
  });

  it('a capture in an older format asks for a new capture', () => {
    const r = refusal(file(JSON.stringify(minimalCapture({ formatVersion: 0 }))));
    expect(r.code).toBe(ExitCode.usage);
    expect(r.hint).toMatch(/Capture the site again with this version/);
  });

  it('a folder, or a FIFO-like non-file, is refused as every input file is', () => {
    expect(refusal(dir).message).toMatch(/not a regular file|folder/);
  });
});
