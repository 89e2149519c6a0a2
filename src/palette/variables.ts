/**
 * Profile variables on a real Palette (palette-sdk-go spec 4.8, `/v1/clusterprofiles/{uid}/variables`):
 * declared on a profile version (`v1Variables {variables: v1Variable[]}`), not in the profile's GET
 * or PUT body. A PUT of pack values that reference `{{.spectro.var.NAME}}` for a NAME the version does
 * not declare is refused (`PackVariablesUndefined`), so a new version's variables are declared before
 * its draft is written. A clone copies the source's declarations; `PUT` replaces the whole list, so
 * the request carries the ones already there plus the new. The value is set per cluster, with the
 * apply (`profiles[].variables` of `PATCH /v1/spectroclusters/{uid}/profiles`).
 */
import { z } from 'zod';
import { opt } from '../io/optional-field.js';
import type { PaletteMutation } from '../engine/mutation.js';
import type { JsonGet } from './registry-client.js';
import { PaletteApiError } from './errors.js';

/** `v1Variable` as the spec defines it; fields the tool does not set are kept as read. */
export const VariableSchema = z.looseObject({
  name: z.string().min(1),
  displayName: opt(z.string()),
  description: opt(z.string()),
  format: opt(z.string()),
  required: opt(z.boolean()),
  hidden: opt(z.boolean()),
  immutable: opt(z.boolean()),
  isSensitive: opt(z.boolean()),
  defaultValue: opt(z.string()),
  regex: opt(z.string()),
});
export type ProfileVariable = z.output<typeof VariableSchema>;

/** `v1Variables`: `variables` may be absent or null on a version that declares none. */
export const VariablesSchema = z.looseObject({ variables: opt(z.array(VariableSchema)) });

/**
 * `GET /v1/spectroclusters/{uid}/variables` answers `[v1SpectroClusterVariables]`: per attached
 * profile version (`profileUid`), its declarations (`v1SpectroClusterVariableResponse`, the
 * `v1Variable` fields) each with this cluster's `value`; a sensitive value comes back masked
 * (the terraform provider keeps its own copy for that reason: `resolveProfileVariableValue`).
 */
export const ClusterVariablesSchema = z.array(
  z.looseObject({
    profileUid: z.string().min(1),
    variables: opt(z.array(VariableSchema.extend({ value: opt(z.string()) }))),
  }),
);
export type ClusterVariables = z.output<typeof ClusterVariablesSchema>;

const seg = (uid: string) => (uid.startsWith('<') && uid.endsWith('>') ? uid : encodeURIComponent(uid));
export const variablesPath = (uid: string): string => `/v1/clusterprofiles/${seg(uid)}/variables`;

/** `PUT /v1/clusterprofiles/{uid}/variables` with the whole list (what is there, plus what is new). */
export function putVariablesRequest(uid: string, variables: ProfileVariable[], summary: string): PaletteMutation {
  return { target: 'palette', method: 'PUT', path: variablesPath(uid), body: { variables }, summary };
}

/** The reads, over the client's transport (auth, retries, rate limits, error mapping). */
export class ProfileVariables {
  constructor(private readonly get: JsonGet) {}

  /** `GET /v1/clusterprofiles/{uid}/variables`: what the version declares. */
  async list(uid: string, signal?: AbortSignal): Promise<ProfileVariable[]> {
    const answer = await this.get(
      {
        method: 'GET',
        path: variablesPath(uid),
        retry: true,
        // The version itself was read before its variables are: a 404 here is about the variables.
        notFound: {
          message: `The profile variables of version ${uid} were not found`,
          hint: 'The version was read just before, so this Palette does not serve its profile variables (an older Palette), or the version was deleted meanwhile. Check the Palette version and the profile uid (a version made by clone has its own uid).',
        },
        ...(signal ? { signal } : {}),
      },
      VariablesSchema,
    );
    return answer.variables ?? [];
  }

  /**
   * `GET /v1/spectroclusters/{uid}/variables`: per attached version, its variables with this
   * cluster's values. Read after the cluster itself was, so a 404 or 405 is about the variables: a
   * Palette that does not serve them (an older one) is read as having none, and
   * `unserved` says so (the plan, the review, `diff` and the report show it).
   */
  async ofCluster(clusterUid: string, signal?: AbortSignal): Promise<ClusterVariablesRead> {
    const path = `/v1/spectroclusters/${seg(clusterUid)}/variables`;
    try {
      const answer = await this.get({ method: 'GET', path, retry: true, ...(signal ? { signal } : {}) }, ClusterVariablesSchema.nullable());
      return { all: answer ?? [] };
    } catch (err) {
      if (!(err instanceof PaletteApiError) || (err.status !== 404 && err.status !== 405)) throw err;
      return { all: [], unserved: unservedNote(path, err.status) };
    }
  }
}

/** The cluster's profile variables as read; `unserved`: why none were (this Palette does not serve them). */
export interface ClusterVariablesRead {
  all: ClusterVariables;
  unserved?: string;
}

/** What a Palette without the cluster variables endpoint means for the run, in one sentence. */
export function unservedNote(path: string, status: number): string {
  return `Profile variables: GET ${path} answered ${status}, so this Palette does not serve profile variables (an older Palette); read as none: a value written as '{{.spectro.var.NAME}}' is judged as written, and no variable value is carried with the apply.`;
}

/** The variables reads behind a client, when it has them (a rehearsal proxy passes them through). */
export function variablesApi(palette: object): ProfileVariables | undefined {
  const v = (palette as { variables?: unknown }).variables;
  return v instanceof ProfileVariables ? v : undefined;
}
