/** The report's "Timeline" section: the run as a Mermaid gantt, with what its colours mean. Pure. */
import type { ReportData } from './model.js';
import { timelineMermaid } from './timeline/mermaid.js';

/** The timeline's title: the cluster and the versions the hops went through. */
export function timelineTitle(r: Pick<ReportData, 'session' | 'hops' | 'rehearsal'>): string {
  const cluster = r.session.cluster.name ?? r.session.cluster.uid ?? 'the cluster';
  const versions = r.hops.length ? ` ${r.hops[0]!.from} → ${r.hops.at(-1)!.to}` : '';
  return `${r.rehearsal ? 'Rehearsal' : 'Upgrade'} of ${cluster}${versions}`;
}

/** The legend under the heading: what the picture shows and on which clock. */
export function timelineLegend(t: ReportData['timeline']): string {
  const lab = t.labSpeed ? ` In this lab the cluster's time ran ${t.labSpeed}x faster: predictions, the window and the lab-time figures are drawn at that speed.` : '';
  return `Wall-clock UTC. Grey bars are the operator's time (a gate waiting for an answer, a stop until the resume); red ones failed; each hop's "predicted end p50..p90" is the plan's forecast for the cluster's work beside what it took.${lab} report.html draws the same in the cluster's local time too.`;
}

export function timelineSection(r: ReportData): string[] {
  if (!r.timeline.sections.length) return [];
  return ['## Timeline', '', `_${timelineLegend(r.timeline)}_`, '', ...timelineMermaid(r.timeline, timelineTitle(r)), ''];
}
