/**
 * Answers the non-resource paths: `/version`, health checks and discovery documents (GET only).
 */
import { SERVER_VERSION, apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import { jsonReply, negotiate, notFoundPage, statusReply, type Reply } from './http.js';
import type { Route } from './routes.js';
import { methodNotAllowed, notAcceptable } from './status.js';

export type NonResourceRoute = Exclude<Route, { kind: 'resource' } | { kind: 'unknown' }>;

export function handleNonResource(route: NonResourceRoute, method: string, accept: string | undefined, serverAddress: string, absentGroups: ReadonlySet<string> = new Set()): Reply {
  if (method !== 'GET' && method !== 'HEAD') return statusReply(methodNotAllowed());
  if (route.kind === 'health') return { status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' };
  // Plain JSON only: a client asking for aggregated discovery alone cannot be served.
  if (!negotiate(accept, false)) return statusReply(notAcceptable());
  switch (route.kind) {
    case 'version':
      return jsonReply(200, SERVER_VERSION);
    case 'apiVersions':
      return jsonReply(200, apiVersions(serverAddress));
    case 'apiGroupList':
      return jsonReply(200, apiGroupList(absentGroups));
    case 'apiGroup': {
      const doc = apiGroupDocument(route.group);
      return doc ? jsonReply(200, doc) : notFoundPage();
    }
    case 'resourceList': {
      const doc = apiResourceList(route.group, route.version);
      return doc ? jsonReply(200, doc) : notFoundPage();
    }
  }
}
