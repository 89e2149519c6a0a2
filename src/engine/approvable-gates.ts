/** Gates that `--approve` may name (and a fleet stage's `approve`, less `stage`). VM restarts are deliberately not among them. */
export const approvableGates = ['health', 'draft', 'publish', 'apply', 'repave', 'cancel-migrations', 'drift', 'stage'] as const;
