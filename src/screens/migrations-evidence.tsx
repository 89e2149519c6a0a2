/**
 * KubeVirt logs one JSON object per line: shown raw, the part that matters (msg, reason) drowns in
 * timestamps and positions. This renders such a line as "component level: msg: reason (ns/name)";
 * any other line is shown as it is. The raw line stays in the output and the report.
 */
export function readableLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const o = JSON.parse(line) as Record<string, unknown>;
    const text = (k: string) => (typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined);
    const msg = text('msg');
    if (!msg) return line;
    const who = text('namespace') && text('name') ? ` (${text('namespace')}/${text('name')})` : '';
    const head = [text('timestamp')?.slice(0, 19), text('component'), text('level')].filter(Boolean).join(' ');
    return `${head ? `${head}: ` : ''}${msg}${text('reason') ? `: ${text('reason')}` : ''}${who}`;
  } catch {
    return line;
  }
}
