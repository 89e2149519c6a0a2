/**
 * A validator of the Mermaid gantt subset the reports write, derived from the real grammar
 * (mermaid-js/mermaid packages/mermaid/src/diagrams/gantt/parser/gantt.jison) in both the forms Git
 * hosts still render: the older lexer, which ends a section name or a task name at `#`, `:` or `;`
 * and reads `#` as a comment, and the newer one, which lets a section run to the end of the line and
 * a task name to the first `:`. A line must lex the same way under both, so the strictest rule of
 * each token is used:
 *   "title"\s[^#\n;]+   "dateFormat"\s[^#\n;]+   "axisFormat"\s[^#\n;]+   "tickInterval"\s[^#\n;]+
 *   "todayMarker"\s[^\n;]+   "section"\s[^#:\n;]+   taskTxt [^#:\n;]+   taskData ":"[^#\n;]+
 * The lexer tries its keyword rules before task text (case-insensitive), so a task name must not
 * start with one, nor with a date; `%%` starts a comment anywhere a token starts. The task data is
 * checked as the gantt database reads it (ganttDb.js): tags first (active, done, crit, milestone),
 * then `id, start, end`, dates strictly in the declared dateFormat, `tickInterval` as
 * /^([1-9][0-9]*)(millisecond|second|minute|hour|day|week|month)$/.
 */

export interface GanttTask {
  section: string;
  name: string;
  tags: string[];
  id: string;
  start: number;
  end: number;
}

export interface GanttResult {
  problems: string[];
  title?: string;
  sections: string[];
  tasks: GanttTask[];
}

const KEYWORD_START = /^(gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|accdescription|acctitle|accdescr|section|click|call|href|\d{4}-\d{2}-\d{2})/i;
const TAGS = new Set(['active', 'done', 'crit', 'milestone']);
const DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A date as `dateFormat YYYY-MM-DD HH:mm:ss` reads it strictly, as UTC milliseconds; NaN when it is not one. */
function parseDate(s: string): number {
  const m = DATE.exec(s);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(t);
  // Strict: 2026-02-30 is not a date.
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h < 24 && mi < 60 && se < 60 ? t : Number.NaN;
}

/** The first fenced ```mermaid block of a Markdown text, or undefined. */
export function mermaidBlock(markdown: string): string | undefined {
  return /```mermaid\n([\s\S]*?)\n```/.exec(markdown)?.[1];
}

export function validateGantt(text: string): GanttResult {
  const problems: string[] = [];
  const sections: string[] = [];
  const tasks: GanttTask[] = [];
  const ids = new Set<string>();
  let title: string | undefined;
  let dateFormat: string | undefined;
  let section: string | undefined;
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0 || lines[first]!.trim() !== 'gantt') problems.push('the diagram does not start with `gantt`');
  lines.forEach((raw, i) => {
    const at = `line ${i + 1}`;
    const line = raw.trim();
    if (i <= first || line === '') return;
    if (line.includes('%%')) problems.push(`${at}: "%%" starts a comment: ${raw}`);
    if (line.includes(';')) problems.push(`${at}: ";" ends a statement in the older lexer: ${raw}`);
    const keyword = /^(title|dateFormat|axisFormat|tickInterval|todayMarker|section)\s(.*)$/.exec(line);
    if (keyword) {
      const [, word, value] = keyword as unknown as [string, string, string];
      const forbidden = word === 'todayMarker' ? /[\n;]/ : word === 'section' ? /[#:\n;]/ : /[#\n;]/;
      if (!value.trim() || forbidden.test(value)) problems.push(`${at}: ${word} "${value}" holds a character its token cannot (${String(forbidden)})`);
      if (word === 'title') title = value;
      if (word === 'dateFormat') dateFormat = value.trim();
      if (word === 'tickInterval' && !/^([1-9][0-9]*)(millisecond|second|minute|hour|day|week|month)$/.test(value.trim())) problems.push(`${at}: tickInterval "${value}" is not one Mermaid takes`);
      if (word === 'section') {
        section = value;
        sections.push(value);
      }
      return;
    }
    const colon = line.indexOf(':');
    if (colon < 0) return problems.push(`${at}: neither a statement nor a task (no ":"): ${raw}`);
    const name = line.slice(0, colon).trim();
    const data = line.slice(colon + 1);
    if (!name || /[#:;]/.test(name)) problems.push(`${at}: task name "${name}" is empty or holds # : or ;`);
    if (KEYWORD_START.test(name)) problems.push(`${at}: task name "${name}" starts with a word the lexer reads as a statement`);
    if (/^.%/.test(name)) problems.push(`${at}: task name "${name}" has "%" second: the lexer reads a comment`);
    if (/[#;]/.test(data)) problems.push(`${at}: task data holds # or ;`);
    if (section === undefined) problems.push(`${at}: a task before any section`);
    if (dateFormat !== 'YYYY-MM-DD HH:mm:ss') problems.push(`${at}: a task before \`dateFormat YYYY-MM-DD HH:mm:ss\``);
    const items = data.split(',').map((s) => s.trim());
    const tags: string[] = [];
    while (items.length && TAGS.has(items[0]!)) tags.push(items.shift()!);
    if (items.length !== 3) return problems.push(`${at}: task data is not "tags, id, start, end": ${data}`);
    const [id, from, to] = items as [string, string, string];
    if (!/^[A-Za-z][\w-]*$/.test(id)) problems.push(`${at}: task id "${id}" is not a plain name`);
    if (ids.has(id)) problems.push(`${at}: task id "${id}" is used twice`);
    ids.add(id);
    const start = parseDate(from);
    const end = parseDate(to);
    if (Number.isNaN(start) || Number.isNaN(end)) problems.push(`${at}: "${from}" or "${to}" is not a date in the dateFormat`);
    else if (end < start) problems.push(`${at}: ends before it starts`);
    tasks.push({ section: section ?? '', name, tags, id, start, end });
  });
  if (!dateFormat) problems.push('no dateFormat');
  for (const s of sections) if (!tasks.some((t) => t.section === s)) problems.push(`section "${s}" holds no task`);
  return { problems, ...(title !== undefined ? { title } : {}), sections, tasks };
}
