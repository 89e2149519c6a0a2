/**
 * Every failure type of the client: its code, message, hint and exit code, and that the API key
 * never appears in any of it (message, hint, where, stack, or anything reachable from the error).
 */
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PilotError } from '../../src/errors.js';
import { PaletteApiError, PaletteRefusedError } from '../../src/palette/errors.js';
import { publishRequest, putProfileRequest } from '../../src/palette/mutations.js';
import { ADDON_UID, API_KEY, PROJECT_UID, startLab, type Lab } from '../lab/palette/support.js';
import { clientFor, jsonAnswer, labClient, startStub } from './support.js';

const seen: unknown[] = [];

async function failure(p: Promise<unknown>): Promise<PaletteApiError> {
  const err = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  seen.push(err);
  expect(err).toBeInstanceOf(PilotError);
  return err as PaletteApiError;
}

describe('PaletteClient errors', () => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await startLab('spec');
  });
  afterEach(async () => {
    await lab.close();
  });

  it('401: the key was not accepted', async () => {
    const err = await failure(labClient(lab, 'spec', { apiKey: 'wrong-key-9c41d2e7-0000' }).client.getProfile(ADDON_UID));
    expect(err).toMatchObject({ code: 'palette.unauthorized', status: 401, exitCode: 4, where: `GET /v1/clusterprofiles/${ADDON_UID}`, mayHaveApplied: false });
    expect(err.message).toBe(`The profile API at ${lab.url} did not accept the API key (401 Unauthorized) on GET /v1/clusterprofiles/${ADDON_UID}.`);
    expect(err.hint).toContain('UPGRADE_PILOT_API_KEY');
    expect(err.message).not.toContain('wrong-key');
  });

  it('403: wrong project or no access', async () => {
    const err = await failure(labClient(lab, 'spec', { projectUid: 'project-elsewhere' }).client.listProfiles());
    expect(err).toMatchObject({ code: 'palette.forbidden', status: 403, exitCode: 4, apiCode: 'Forbidden', ref: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(err.message).toContain('project project-elsewhere');
    expect(err.hint).toContain('palette.projectUid');
  });

  it('404: an unknown profile is named', async () => {
    const err = await failure(labClient(lab, 'spec').client.getProfile('profile-typo'));
    expect(err).toMatchObject({ code: 'palette.not-found', status: 404, exitCode: 4, apiCode: 'ResourceNotFound' });
    expect(err.message).toContain(`Profile profile-typo was not found in project ${PROJECT_UID}`);
    expect(err.hint).toContain('profiles.addon.uid');
  });

  it('404: an unknown cluster is named, with a hint about the collection segment', async () => {
    const err = await failure(labClient(lab, 'spec').client.getClusterProfiles('cluster-typo'));
    expect(err.message).toContain('Cluster cluster-typo was not found');
    expect(err.hint).toContain('spectroclusters');
    const wrongSegment = await failure(labClient(lab, 'palette').client.getClusterProfiles('cluster-lab-0001'));
    expect(wrongSegment.message).toContain('/v1/spectroclusters');
    expect(wrongSegment.hint).toContain('palette.clusterCollection: clusters');
  });

  it('404 on a mutation names the profile', async () => {
    const err = await failure(labClient(lab, 'spec').client.execute(publishRequest('profile-typo', 'publish')));
    expect(err.message).toContain('Profile profile-typo was not found');
  });

  it('429: rate limited after the bounded retries, each one waiting as told', async () => {
    lab.faults.set([{ route: '*', faults: { rateLimit: { burst: 100, every: 100, retryAfterSeconds: 0 } } }]);
    const t = labClient(lab, 'spec', { flavor: 'spec', retry: { attempts: 3 } });
    const err = await failure(t.client.listProfiles());
    expect(err).toMatchObject({ code: 'palette.rate-limited', status: 429, exitCode: 4 });
    expect(err.message).toBe('The profile API kept answering 429 Too Many Requests on GET /v1/clusterprofiles (3 attempts).');
    expect(t.retries.map((r) => [r.reason, r.delayMs])).toEqual([
      ['429', 0],
      ['429', 0],
    ]);
  });

  it('5xx: status, code, message and ref, after the retries', async () => {
    lab.faults.set([{ route: 'GET /v1/clusterprofiles', faults: { errorRate: 1 } }]);
    const t = labClient(lab, 'spec', { flavor: 'spec', retry: { attempts: 2 } });
    const err = await failure(t.client.listProfiles());
    expect(err).toMatchObject({ code: 'palette.server-error', exitCode: 4, apiCode: 'ServiceUnavailable', mayHaveApplied: false });
    expect([500, 502, 503]).toContain(err.status);
    expect(err.message).toMatch(/^The profile API failed with 50[023] on GET \/v1\/clusterprofiles \(code ServiceUnavailable, "Injected server error 50[023]", ref [0-9a-f]{16}\) after 2 attempts\.$/);
    expect(err.message).toContain(err.ref!);
    expect(t.retries).toHaveLength(1);
  });

  it('a 5xx on a mutation may have applied: the hint says it will be settled by reading', async () => {
    lab.faults.set([{ route: 'PATCH /v1/clusterprofiles/*/publish', faults: { errorRate: 1 } }]);
    const err = await failure(labClient(lab, 'spec').client.execute(publishRequest(ADDON_UID, 'publish')));
    expect(err).toMatchObject({ code: 'palette.server-error', mayHaveApplied: true });
    expect(err.hint).toContain('reads the profile');
  });

  it('409: publish without a draft is a conflict, certainly not applied', async () => {
    const err = await failure(labClient(lab, 'spec').client.execute(publishRequest(ADDON_UID, 'publish')));
    expect(err).toMatchObject({ code: 'palette.conflict', status: 409, apiCode: 'ClusterProfileNoDraft', mayHaveApplied: false, exitCode: 4 });
  });

  it('405 from a replay of a capture: it says first that this is a replay, read-only, and offers a rehearsal, never a resume', async () => {
    const stub = await startStub(jsonAnswer(405, { code: 'ReplayIsReadOnly', message: 'This lab replays a capture of a site: it is frozen and read-only', ref: 'r1' }));
    try {
      const err = await failure(clientFor(stub.url).client.execute(publishRequest(ADDON_UID, 'publish')));
      expect(err).toMatchObject({ code: 'palette.replay-read-only', status: 405, apiCode: 'ReplayIsReadOnly', mayHaveApplied: false, exitCode: 4, resumable: false });
      expect(err.message).toMatch(/^This is a replay of a capture: read-only\. PATCH \S+ was refused/);
      expect(err.message).toContain('nothing was changed');
      expect(err.hint).toMatch(/^A replay takes no changes.*upgrade-pilot rehearse --params/);
      expect(err.hint).not.toMatch(/palette\.baseUrl/);
    } finally {
      await stub.close();
    }
  });

  it('405 from any other server: nothing changed, check the base URL (no word of a replay)', async () => {
    const stub = await startStub(jsonAnswer(405, { code: 'MethodNotAllowed', message: 'not here', ref: 'r2' }));
    try {
      const err = await failure(clientFor(stub.url).client.execute(publishRequest(ADDON_UID, 'publish')));
      expect(err).toMatchObject({ code: 'palette.not-allowed', status: 405, mayHaveApplied: false, exitCode: 4 });
      expect(err.hint).toMatch(/^Nothing was changed\. Check palette\.baseUrl/);
      expect(`${err.message} ${err.hint}`).not.toMatch(/replay/i);
    } finally {
      await stub.close();
    }
  });

  it('400: a payload the API refuses is bad input (exit 2), with the API’s reason', async () => {
    const body = { metadata: { name: 'vmo-core', uid: 'someone-else' }, spec: { type: 'add-on', cloudType: 'all', version: '1.3.0', template: { type: 'add-on', cloudType: 'all', packServerRefs: [], packs: [{ name: 'a', tag: '1' }] } } };
    const err = await failure(labClient(lab, 'spec').client.execute(putProfileRequest(ADDON_UID, body, 'draft')));
    expect(err).toBeInstanceOf(PaletteRefusedError);
    expect(err).toMatchObject({ code: 'palette.refused', status: 400, exitCode: 2, apiCode: 'BadRequest' });
    expect(err.message).toContain('does not match the profile');
  });

  it('a pack listed twice is refused before sending (exit 2, nothing sent)', async () => {
    const body = { metadata: { name: 'vmo-core', uid: ADDON_UID }, spec: { type: 'add-on', cloudType: 'all', version: '1.3.0', template: { type: 'add-on', cloudType: 'all', packServerRefs: [], packs: [{ name: 'a', tag: '1' }, { name: 'a', tag: '2' }] } } };
    const err = await failure(labClient(lab, 'spec').client.execute(putProfileRequest(ADDON_UID, body, 'draft')));
    expect(err).toMatchObject({ code: 'palette.unsafe-draft', exitCode: 2 });
    expect(err.message).toContain('it lists pack a more than once');
    expect(lab.audit.entries()).toEqual([]);
  });

  it('timeout: a server that never answers, named with the limit', async () => {
    lab.faults.set([{ route: 'GET /v1/clusterprofiles', faults: { hang: true } }]);
    const t = labClient(lab, 'spec', { flavor: 'spec', timeoutMs: 100, retry: { attempts: 2 } });
    const err = await failure(t.client.listProfiles());
    expect(err).toMatchObject({ code: 'palette.timeout', exitCode: 4, mayHaveApplied: false });
    expect(err.message).toBe(`The profile API at ${lab.url} did not answer GET /v1/clusterprofiles within 100 ms (2 attempts).`);
    // The server never answers: the two attempts ended at their limit, nothing else could end them.
    expect(t.retries.map((r) => r.reason)).toEqual(['ETIMEDOUT']);
  });
});

describe('PaletteClient errors without a lab', () => {
  it('unreachable: names the base URL', async () => {
    const stub = await startStub(jsonAnswer(200, {}));
    await stub.close();
    const t = clientFor(stub.url, { retry: { attempts: 2 } });
    const err = await failure(t.client.getProfile('x'));
    expect(err).toMatchObject({ code: 'palette.unreachable', exitCode: 4, mayHaveApplied: false });
    expect(err.message).toBe(`Cannot reach the profile API at ${stub.url} for GET /v1/clusterprofiles/x: connection refused (2 attempts).`);
    expect(err.hint).toContain('palette.baseUrl');
  });

  it('an answer that does not fit names the field, its path and the call', async () => {
    const doc = {
      metadata: { name: 'p', uid: 'abc' },
      spec: { version: '1.0.0', template: { packs: [{ name: 'a', tag: '1' }, { name: 'b', tag: '2' }, { name: 'c' }] } },
    };
    const stub = await startStub(jsonAnswer(200, doc));
    try {
      const err = await failure(clientFor(stub.url).client.getProfile('abc'));
      expect(err).toMatchObject({ code: 'palette.bad-response', exitCode: 4, where: 'GET /v1/clusterprofiles/abc' });
      expect(err.message).toBe('GET /v1/clusterprofiles/abc: spec.template.packs[2].tag: expected string, received undefined');
    } finally {
      await stub.close();
    }
  });

  it.each([
    ['neither template nor draft/published', { metadata: { name: 'p', uid: 'abc' }, spec: { version: '1.0.0' } }, 'spec.template: expected object (or spec.draft / spec.published)'],
    ['a deployed pack of neither shape', { profiles: [{ metadata: { name: 'p' }, packs: [{ tag: '1' }] }] }, 'profiles[0].packs[0].name: expected string (or spec.name)'],
  ])('an answer with %s is explained', async (_name, body, detail) => {
    const stub = await startStub(jsonAnswer(200, body));
    try {
      const { client } = clientFor(stub.url, { flavor: 'spec' });
      const err = await failure('profiles' in body ? client.getClusterProfiles('c') : client.getProfile('abc'));
      expect(err.message).toContain(detail);
    } finally {
      await stub.close();
    }
  });

  it('an answer that is not JSON says so', async () => {
    const stub = await startStub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    });
    try {
      const err = await failure(clientFor(stub.url, { flavor: 'spec' }).client.listProfiles());
      expect(err.message).toBe('GET /v1/clusterprofiles: the answer is not JSON (<html>login</html>)');
    } finally {
      await stub.close();
    }
  });

  it('a server that echoes the key gets it scrubbed from the message, even a short key', async () => {
    for (const key of [API_KEY, 'k3y-42']) {
      const stub = await startStub(jsonAnswer(500, { code: 'Boom', message: `bad request with ApiKey ${key}`, ref: `r-${key}` }));
      try {
        const err = await failure(clientFor(stub.url, { flavor: 'spec', apiKey: key, retry: { attempts: 1 } }).client.listProfiles());
        expect(err.message).toContain('bad request with ApiKey [REDACTED]');
        expect(err.message).not.toContain(key);
      } finally {
        await stub.close();
      }
    }
  });
});

describe('the API key', () => {
  afterAll(() => {
    // Every error produced in this file, in every form an operator or a log could see.
    expect(seen.length).toBeGreaterThanOrEqual(15);
    for (const err of seen) {
      const info = (err as PilotError).toInfo();
      for (const text of [JSON.stringify(info), String(err), (err as Error).stack ?? '', inspect(err, { depth: 8, showHidden: true })]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain('k3y-42');
        expect(text).not.toContain('wrong-key-9c41d2e7');
      }
    }
  });

  it('is registered with the redactor by the client', () => {
    const { redactor } = clientFor('http://127.0.0.1:1');
    expect(redactor.text(`key=${API_KEY}`)).toBe('key=[REDACTED]');
  });
});
