import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { PlannedHop, VmImpact } from '../steps/contracts.js';
import { impactLine, sortImpact } from '../steps/plan/impact.js';
import { referenceText } from '../steps/plan/render-text.js';
import type { PlanLive, PlanOutput } from '../steps/plan/types.js';
import { ErrorPanel } from './ErrorPanel.js';
import { StatusPanel } from './StatusPanel.js';
import type { StepScreenProps } from './step-screen.js';
import { colour, type Tone } from './theme.js';
import { WindowedTable, type Column } from './WindowedTable.js';
import { Para } from './Para.js';

const fateLabel: Record<VmImpact['fate'], { text: string; tone: Tone }> = {
  'live-migrate': { text: 'LIVE-MIGRATE', tone: 'pass' },
  evict: { text: 'EVICT', tone: 'warn' },
  restart: { text: 'RESTART LATER', tone: 'accent' },
  'not-running': { text: 'NOT RUNNING', tone: 'muted' },
};

/** The reason takes what the screen has left, so a row never wraps. */
const columnsFor = (width: number): Column<VmImpact>[] => [
  { title: 'FATE', value: (r) => fateLabel[r.fate].text, width: 13, colour: (r) => colour(fateLabel[r.fate].tone) },
  { title: 'VM', value: (r) => r.vm, width: 32 },
  { title: 'NODE', value: (r) => r.node ?? '', width: 14 },
  { title: 'WHY', value: (r) => r.reason, cut: 'end', width: Math.max(20, width - 13 - 32 - 14 - 6) },
];

/** The screen names the registry once (under the ladder); each hop and profile refers to it in short. */
function Hop({ hop, registry }: { hop: PlannedHop; registry: string | undefined }) {
  const components = [hop.kubevirtVersion && `KubeVirt ${hop.kubevirtVersion}`, hop.cdiVersion && `CDI ${hop.cdiVersion}`].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>
          Hop {hop.index}: {hop.from} → {hop.to}
        </Text>
        {components ? <Text dimColor> deploys {components}</Text> : null}
        {hop.source ? <Text dimColor> · {hop.to} is {registry ? hop.source.replace(` in ${registry}`, '') : hop.source}</Text> : null}
      </Text>
      {hop.profiles.map((p) => (
        <Box key={p.role} flexDirection="column">
          <Text>
            {'  '}
            {p.name} version {p.fromVersion} → <Text bold>{p.toVersion}</Text>
            <Text dimColor> ({p.reference?.kind === 'registry' ? 'registry defaults' : referenceText(p)})</Text>
          </Text>
          {p.packs.map((k) => (
            <Text key={k.name}>
              {'    '}
              {k.name.padEnd(30)} {k.from} → <Text bold>{k.to}</Text>
              {k.source && p.reference?.kind !== 'profile' ? <Text dimColor> {k.source}</Text> : null}
            </Text>
          ))}
          {p.stays?.length ? <Text dimColor>{`    stay: ${p.stays.join(', ')}`}</Text> : null}
        </Box>
      ))}
      {(hop.variables ?? []).map((v) => (
        <Text key={v.name} wrap="truncate-end">
          {'  '}new profile variable <Text bold>{v.name}</Text>
          <Text dimColor> ({v.since}): declared before the draft; its value is asked at the draft gate{v.sensitive ? ', hidden' : ''}, and written nowhere</Text>
        </Text>
      ))}
    </Box>
  );
}

/**
 * The plan: the hops as a ladder of one minor each, per profile the packs that change and the new
 * label, and the VM impact table (restarts and evictions first). A refused plan is a red panel with
 * the reason and the fix.
 */
export function PlanScreen({ step, isActive, height, width }: StepScreenProps) {
  const out = step.output as PlanOutput | undefined;
  const live = step.live as PlanLive | undefined;
  // Sorted once per output, not on every key press: the table may hold thousands of VMs.
  const sorted = useMemo(() => sortImpact(out?.impact ?? []), [out]);
  if (!out) {
    return (
      <Box flexDirection="column">
        <Text bold>{step.title}</Text>
        <Text dimColor>{step.skipReason ? `Skipped: ${step.skipReason}` : (live?.headline ?? 'Waiting…')}</Text>
        {step.error ? <ErrorPanel error={step.error} /> : null}
      </Box>
    );
  }
  if (out.status === 'refused') {
    return (
      <Box flexDirection="column">
        <Text>
          <Text bold>{step.title}</Text> <Text dimColor>{out.pack} {out.deployed} → {out.target}</Text>
        </Text>
        <StatusPanel status="fail" title="The plan is refused" summary={out.refusal?.reason ?? ''} lines={out.refusal ? [`What to do: ${out.refusal.hint}`] : []} expanded />
      </Box>
    );
  }
  const ladder = [out.deployed, ...out.hops.map((h) => h.to)].join(' ─▶ ');
  const hopLines = out.hops.reduce((n, h) => n + 1 + (h.variables?.length ?? 0) + h.profiles.reduce((m, p) => m + 1 + p.packs.length + (p.stays?.length ? 1 : 0), 0), 0);
  const wayBack = out.wayBack ?? [];
  const tableHeight = Math.max(3, height - hopLines - (out.versionSource ? 1 : 0) - out.notes.length - (wayBack.length ? wayBack.length + 1 : 0) - 8);
  const ok = colour('pass');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{step.title}</Text>{' '}
        {out.hops.length ? (
          <Text>
            {out.pack} <Text bold>{ladder}</Text> <Text dimColor>({out.hops.length} hop(s), one minor each)</Text>
          </Text>
        ) : (
          <Text {...(ok ? { color: ok } : {})}>
            {out.pack} is already at {out.deployed}: nothing to publish.
          </Text>
        )}
      </Text>
      {out.hops.length && out.versionSource ? <Text dimColor>Versions from {out.versionSource}</Text> : null}
      {out.hops.map((h) => (
        <Hop key={h.index} hop={h} registry={out.versionSource} />
      ))}
      <Box flexDirection="column" marginTop={1}>
        <Text>
          <Text bold>VM impact</Text> {impactLine(out.impactCounts)}
        </Text>
        <WindowedTable columns={columnsFor(width)} rows={sorted} height={tableHeight} isActive={isActive} rowKey={(r) => r.vm} emptyText="No VMs on this cluster." />
      </Box>
      {out.notes.map((n, i) => (
        <Para key={i} dimColor>
          • {n}
        </Para>
      ))}
      {wayBack.length ? <Text bold>The way back</Text> : null}
      {wayBack.map((w) => (
        <Para key={w.role} dimColor>
          • {w.name} {w.version} (uid {w.uid}): {w.how}
        </Para>
      ))}
    </Box>
  );
}
