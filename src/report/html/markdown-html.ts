/**
 * The report's Markdown as HTML, so report.html says exactly what report.md says. Only the subset
 * the reports write: headings, pipe tables, lists (one level of nesting, continuation lines),
 * block quotes, fenced code (diffs coloured), paragraphs, and inline bold, italics and code. Every
 * text is escaped before any markup is added; a fenced `mermaid` block and whole `##` sections can
 * be replaced by the caller (the SVG timeline, the verification panels). Pure.
 */
import { xmlText } from '../junit.js';

export const escapeHtml = (s: string): string => xmlText(s, 200_000);

export interface HtmlOverrides {
  /** What to put in place of a fenced block of this language (its lines given), e.g. `mermaid`. */
  fenced?: Record<string, (lines: string[]) => string>;
  /** What to put in place of a `## Heading` section, heading included, keyed by the heading's text. */
  sections?: Record<string, () => string>;
}

/** Bold, italics and code in one line of text (escaped first; nothing inside code is formatted). */
export function inline(s: string): string {
  return s
    .split(/(`[^`]*`)/g)
    .map((part) => {
      if (/^`[^`]*`$/.test(part)) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+?)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])_([^_]+?)_(?=$|[\s).,;:])/g, '$1<em>$2</em>');
    })
    .join('');
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'section';

/** A table row's cells: split at `|` not escaped as `\|`. */
function cellsOf(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function table(lines: string[]): string {
  const [head, , ...rows] = lines;
  const th = cellsOf(head!).map((c) => `<th>${inline(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${cellsOf(r).map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('\n');
  // A key-value table (empty header) reads as a definition table.
  const keyValue = cellsOf(head!).every((c) => c === '');
  return `<div class="table"><table${keyValue ? ' class="kv"' : ''}>${keyValue ? '' : `<thead><tr>${th}</tr></thead>`}<tbody>\n${body}\n</tbody></table></div>`;
}

/** Lists: `- item`, `  - sub-item`, and `  text` continuing the item above. */
function list(lines: string[]): string {
  const items: Array<{ text: string[]; subs: string[] }> = [];
  for (const l of lines) {
    if (/^- /.test(l)) items.push({ text: [l.slice(2)], subs: [] });
    else if (/^ {2,}- /.test(l)) items.at(-1)?.subs.push(l.trim().slice(2));
    else items.at(-1)?.text.push(l.trim());
  }
  const li = items.map((i) => `<li>${i.text.map(inline).join('<br>')}${i.subs.length ? `<ul>${i.subs.map((s) => `<li>${inline(s)}</li>`).join('')}</ul>` : ''}</li>`);
  return `<ul>\n${li.join('\n')}\n</ul>`;
}

function code(lang: string, lines: string[]): string {
  const cls = (l: string) => (lang !== 'diff' ? '' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : '');
  const body = lines.map((l) => (cls(l) ? `<span class="${cls(l)}">${escapeHtml(l)}</span>` : escapeHtml(l))).join('\n');
  return `<pre class="code${lang ? ` lang-${escapeHtml(lang)}` : ''}"><code>${body}</code></pre>`;
}

export function markdownHtml(markdown: string, overrides: HtmlOverrides = {}): string {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  const take = (test: (l: string) => boolean): string[] => {
    const got: string[] = [];
    while (i < lines.length && test(lines[i]!)) got.push(lines[i++]!);
    return got;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const replace = level === 2 ? overrides.sections?.[heading[2]!] : undefined;
      i++;
      if (replace) {
        out.push(replace());
        take((l) => !/^#{1,2} /.test(l));
        continue;
      }
      out.push(`<h${level} id="${slug(heading[2]!)}">${inline(heading[2]!)}</h${level}>`);
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      i++;
      const body = take((l) => !/^```\s*$/.test(l));
      i++;
      const lang = fence[1] ?? '';
      out.push(overrides.fenced?.[lang]?.(body) ?? code(lang, body));
      continue;
    }
    if (line.startsWith('|')) {
      out.push(table(take((l) => l.startsWith('|'))));
      continue;
    }
    if (line.startsWith('- ')) {
      out.push(list(take((l) => l.startsWith('- ') || /^ {2,}\S/.test(l))));
      continue;
    }
    if (line.startsWith('> ')) {
      out.push(`<blockquote>${take((l) => l.startsWith('> ')).map((l) => inline(l.slice(2))).join('<br>')}</blockquote>`);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para = take((l) => l.trim() !== '' && !/^(#{1,4} |```|\||- |> )/.test(l));
    out.push(`<p>${para.map(inline).join('<br>')}</p>`);
  }
  return out.join('\n');
}
