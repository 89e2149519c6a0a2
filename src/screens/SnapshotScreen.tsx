import { Box, Text } from 'ink';
import type { SnapshotOutput } from '../steps/snapshot/snapshot.js';
import { ErrorPanel } from './ErrorPanel.js';
import type { LiveHeadline, StepScreenProps } from './step-screen.js';
import { colour } from './theme.js';
import { wallDate, wallTime } from '../text/time.js';
import { Para } from './Para.js';

const few = (names: string[], cap = 6): string => (names.length <= cap ? names.join(', ') : `${names.slice(0, cap).join(', ')}, … ${names.length - cap} more`);

/** What the snapshot recorded: the deployed profiles with their pack tags, and the baseline as counts. */
export function SnapshotScreen({ step, labTime = false }: StepScreenProps) {
  const out = step.output as SnapshotOutput | undefined;
  const live = step.live as LiveHeadline | undefined;
  if (!out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Waiting…')}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  const b = out.baseline;
  const c = out.counts;
  const amber = colour('warn');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text> <Text dimColor>
          recorded at {wallDate(out.takenAt)} {wallTime(out.takenAt)}
          {labTime ? ' lab time' : ''}
        </Text>
      </Text>
      <Text bold>Deployed profiles</Text>
      {b.deployedProfiles.map((p) => (
        <Box key={p.name} flexDirection="column">
          <Text>
            {'  '}
            <Text bold>{p.name}</Text> {p.version || '?'}
          </Text>
          <Para dimColor>
            {'    '}
            {p.packs.map((k) => `${k.name} ${k.tag}`).join(' · ')}
          </Para>
        </Box>
      ))}
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Cluster baseline</Text>
        <Text>
          {'  '}VMs {c.vms} ({c.runningVmis} running, {c.notRunning} not running) · KubeVirt {b.kubevirtVersion ?? '?'} · CDI {b.cdiVersion ?? '?'}
        </Text>
        <Text>
          {'  '}Nodes {c.nodes}
          {c.notReadyNodes ? <Text {...(amber ? { color: amber } : {})}> ({c.notReadyNodes} not Ready: {few(b.nodes.notReady)})</Text> : ' (all Ready)'}
        </Text>
        <Para>
          {'  '}Networks {c.nads}
          {c.nads ? `: ${few(b.nads)}` : ''}
        </Para>
        {(out.notes ?? []).map((n, i) => (
          <Para key={`note-${i}`} dimColor>
            {'  '}
            {n}
          </Para>
        ))}
        <Para>
          {'  '}Load-balancer addresses {c.loadBalancerServices}
          {c.loadBalancerServices ? `: ${few(b.loadBalancerServices.map((s) => `${s.service} ${s.addresses.join(',')}`), 4)}` : ''}
        </Para>
        <Para>
          {'  '}Storage classes {c.storageClasses}
          {c.storageClasses ? `: ${few(b.storageClasses)}` : ''}
        </Para>
      </Box>
      {step.drift && !step.drift.ok ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold {...(amber ? { color: amber } : {})}>
            WARN Changed since the snapshot:
          </Text>
          {step.drift.findings.map((f, i) => (
            <Text key={i}>  • {f}</Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
