/** Reading a kubeconfig and finding when its credentials stop working. */
export { kubeconfigPaths } from './locate.js';
export { readContextUser, type KubeUser, type ResolvedUser } from './read.js';
export { credentialsOf, type Credential } from './credentials.js';
export { jwtExpiry, type JwtExpiry } from './jwt.js';
export { accessFreshness, judgeCredentials, type Freshness, type FreshnessInput } from './freshness.js';
