import { Box, Text } from 'ink';
import type { SessionMeta } from '../engine/state.js';
import { shortenMiddle } from './fit-text.js';
import { colour } from './theme.js';

function Badge({ text, tone }: { text: string; tone: 'fail' | 'warn' | 'info' }) {
  const c = colour(tone);
  return (
    <Text bold inverse={!!c} {...(c ? { color: c } : {})}>
      {` ${text} `}
    </Text>
  );
}

/**
 * One badge, one meaning: what a change the run makes reaches. LIVE: a real cluster and its
 * profiles. LAB: a lab's simulated Palette and cluster only (embedded, or served by `lab --serve`). REHEARSAL: nothing is sent
 * (on a lab, LAB REHEARSAL). Never two badges that could be read as contradicting each other.
 */
export function modeBadge(meta: Pick<SessionMeta, 'lab' | 'servedLab' | 'mode'>): { text: string; tone: 'fail' | 'warn' | 'info' } {
  const lab = meta.lab || meta.servedLab === true;
  if (meta.mode === 'rehearsal') return { text: lab ? 'LAB REHEARSAL' : 'REHEARSAL', tone: 'warn' };
  return lab ? { text: 'LAB', tone: 'info' } : { text: 'LIVE', tone: 'fail' };
}

/**
 * The header, always one line: the badge and the session id are always there; the cluster's name
 * next (shortened in the middle when it must be); then, as room allows, the kube context, the
 * runbook's title and the tool's name.
 */
export function headerParts(meta: SessionMeta, columns: number): { lead: string; cluster: string; context: string; badge: string; session: string } {
  const badge = modeBadge(meta).text;
  const cluster = meta.cluster.name ?? meta.cluster.uid ?? 'no cluster';
  // Padding 2, the badge and its spaces, a gap, the session id.
  const right = badge.length + 2 + 1 + meta.id.length;
  const room = Math.max(0, columns - 2 - right - 2);
  const context = meta.cluster.context ? ` (${meta.cluster.context})` : '';
  const session = columns - 2 - right - `session `.length - 2 >= `cluster ${cluster}`.length ? `session ${meta.id}` : meta.id;
  const sessionRoom = room - (session.length - meta.id.length);
  for (const lead of [`upgrade-pilot · ${meta.runbook.title} · cluster `, `${meta.runbook.title} · cluster `, 'cluster ', '']) {
    if (lead.length + cluster.length + context.length <= sessionRoom) return { lead, cluster, context, badge, session };
    if (lead.length + cluster.length <= sessionRoom) return { lead, cluster, context: '', badge, session };
  }
  return { lead: '', cluster: shortenMiddle(cluster, Math.max(1, sessionRoom)), context: '', badge, session };
}

export function Header({ meta, columns = 120 }: { meta: SessionMeta; columns?: number }) {
  const p = headerParts(meta, columns);
  const b = modeBadge(meta);
  return (
    <Box justifyContent="space-between" paddingX={1}>
      <Text wrap="truncate-end">
        {p.lead}
        <Text bold>{p.cluster}</Text>
        {p.context ? <Text dimColor>{p.context}</Text> : null}
      </Text>
      <Box gap={1} flexShrink={0}>
        <Badge text={b.text} tone={b.tone} />
        <Text dimColor>{p.session}</Text>
      </Box>
    </Box>
  );
}
