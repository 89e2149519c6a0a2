/** `namespace/name` of a Kubernetes object (a VM, a Service), as the params file and `--approve-restart` write it. */
export const NS_NAME_PATTERN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
