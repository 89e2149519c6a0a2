/**
 * The lab's Kubernetes API double: what the rest of the lab (the world, `lab --serve`, tests) uses.
 */
export { startKubeApiServer, type KubeApiServer, type KubeApiServerOptions, type ForbiddenRule } from './server.js';
export { ResourceStore, kubeTimestamp, type ResourceStoreOptions } from './store.js';
export { kubeconfigYaml, writeKubeconfig, type KubeconfigOptions } from './kubeconfig.js';
export { SERVED_TYPES, servedType, apiVersionOf, type ServedType } from './kinds.js';
export { badRequest, conflict, forbidden, notFound, serverError } from './status.js';
export type * from './types.js';
