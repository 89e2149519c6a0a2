/** The known-issue signatures of spec 9.1.3, as recommended for the bundled runbook. */
export const knownIssuesYaml = `knownIssues:
  - id: launcher-skipped-minor
    title: launcher incompatible after a skipped minor
    recovery:
      - "List the VMIs carrying the outdated-launcher label: kubectl get vmi -A -l kubevirt.io/outdatedLauncherImage"
      - "Cancel each stuck migration: kubectl delete vmim NAME -n NAMESPACE"
      - "Restart each affected VM (virtctl restart NAME -n NAMESPACE): a graceful shutdown and boot, the VM is unavailable meanwhile"
    signatures:
      - id: closed-client-socket
        source: migrationFailureReason
        pattern: "client socket is closed"
        description: migration error reporting a closed client socket
      - id: dirty-rate-unimplemented
        source: virtHandlerLogs
        pattern: "Unimplemented.*GetDomainDirtyRateStats"
        description: Unimplemented gRPC error for GetDomainDirtyRateStats in virt-handler
      - id: network-info-cache-missing
        source: launcherLogs
        pattern: "network-info-cache.*no such file or directory"
        secondary: true
        description: missing network-info cache file
`;
