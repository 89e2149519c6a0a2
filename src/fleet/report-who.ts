/**
 * Who made each decision in a fleet, and what the verification said. A typed key names who typed
 * it (user@host, from the session's own record); a flag names the command line it was on and who
 * ran it (the session's run the decision was made in: its start or a resume, the fleet's start,
 * resume or retry); a stage policy names where it is written in the fleet file (`edge.yaml:42`); a
 * rule of the tool says so. Pure.
 */
import type { ReportData, ReportDecision } from '../report/model.js';
import type { FleetClusterRow } from './report-schema.js';

type Decision = FleetClusterRow['decisions'][number];

/** Who ran the session at each moment: its start, then each resume (the session's own record). */
function runsOf(r: ReportData): Array<{ from: string; by: string }> {
  return [{ from: r.startedAt, by: r.operator }, ...r.stops.flatMap((s) => (s.resumedAt ? [{ from: s.resumedAt, by: s.resumedBy ?? r.operator }] : []))];
}

const operatorAt = (runs: ReadonlyArray<{ from: string; by: string }>, at: string) => [...runs].reverse().find((x) => x.from <= at)?.by ?? runs[0]?.by;

/** A stage policy's record names its stage and where it is written: `fleet edge, stage wave-2 (edge.yaml:42): approve apply`. */
const writtenAt = (policy: string) => /^fleet .+?, stage .+? \(([^()]+:\d+)\)/.exec(policy)?.[1];

export function decisionOf(d: ReportDecision, report: ReportData): Decision {
  const runs = runsOf(report);
  const detail = d.key ?? d.flag ?? d.policy ?? d.by;
  const who: Pick<Decision, 'operator' | 'where'> =
    d.by === 'key' ? { operator: d.operator ?? operatorAt(runs, d.at) ?? '' } : d.by === 'flag' ? { operator: operatorAt(runs, d.at) ?? '' } : { where: writtenAt(d.policy ?? '') ?? 'upgrade-pilot' };
  return { at: d.at, gate: d.gate, ...(d.subject ? { subject: d.subject } : {}), choice: d.choice, by: d.by, detail, ...who };
}

/** "key f (ana@jump)", "flag --approve apply (ana@jump)", "policy of stage wave-2 (edge.yaml:42)", "policy: unattended ... (upgrade-pilot)". */
export function whoText(d: Pick<Decision, 'by' | 'detail' | 'operator' | 'where'>, stage?: string | null): string {
  if (d.by === 'key') return `key ${d.detail}${d.operator ? ` (${d.operator})` : ''}`;
  if (d.by === 'flag') return `flag ${d.detail} on the command line${d.operator ? ` (${d.operator})` : ''}`;
  if (d.where && d.where !== 'upgrade-pilot') return `policy of stage ${stage ?? '?'} (${d.where})`;
  return `policy${stage ? ` of stage ${stage}` : ''}: ${d.detail.replace(/^unattended: /, 'unattended, ')}`;
}

const count = (results: ReadonlyArray<{ status: string }>, s: string) => results.filter((r) => r.status === s).length;

/** The verification in words: what ran and who accepted its results, or why it did not run. */
export function verificationOf(report: ReportData | undefined, decisions: readonly Decision[], stage: string | null): FleetClusterRow['verification'] {
  const step = report?.steps.find((s) => s.kind === 'verify');
  const v = report?.verification;
  if (!v) {
    const text = step?.status === 'skipped' ? `skipped${step.summary ? `: ${step.summary}` : ''}` : 'not reached';
    return { ran: false, text };
  }
  const counts = { green: count(v.results, 'pass'), amber: count(v.results, 'warn'), red: count(v.results, 'fail'), unknown: count(v.results, 'unknown') };
  const said = [`${counts.green} green`, ...(counts.amber ? [`${counts.amber} amber`] : []), ...(counts.red ? [`${counts.red} red`] : []), ...(counts.unknown ? [`${counts.unknown} unknown`] : [])].join(', ');
  const decided = decisions.filter((d) => d.gate === 'verify').at(-1);
  const by = decided ? `; ${decided.choice === 'skip' ? 'accepted' : decided.choice} by ${whoText(decided, stage)}` : '';
  return { ran: true, counts, overall: v.overall, ...(decided ? { decided: { by: decided.by, detail: decided.detail, ...(decided.operator ? { operator: decided.operator } : {}), ...(decided.where ? { where: decided.where } : {}) } } : {}), text: `ran: ${said}${by}` };
}
