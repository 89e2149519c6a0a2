/**
 * report.html (pure): the report's Markdown as HTML, every text escaped before markup (a table of
 * hostile inputs), the subset the reports write (tables with escaped pipes, nested lists, code
 * blocks with diffs coloured, quotes); the session page on a real lab report: self-contained (no
 * script, a CSP forbidding every load), the timeline SVG where report.md has its gantt, the
 * verification as the TUI's panels; the fleet page likewise.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fleetHtml } from '../../src/fleet/report-pictures.js';
import { fleetMarkdown } from '../../src/fleet/report-markdown.js';
import type { FleetReport } from '../../src/fleet/report-schema.js';
import { inline, markdownHtml } from '../../src/report/html/markdown-html.js';
import { sessionHtml } from '../../src/report/html/session.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { ReportData } from '../../src/report/model.js';
import { checkGantt, checkHtml } from '../support/report-pictures.js';

const fixture = <T>(name: string) => JSON.parse(readFileSync(new URL(`../fixtures/report/${name}`, import.meta.url), 'utf8')) as T;

describe('markdownHtml', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a & b "c" \'d\'', 'a &amp; b &quot;c&quot; &apos;d&apos;'],
    ['**bold** and _em_ and `co<de>`', '<strong>bold</strong> and <em>em</em> and <code>co&lt;de&gt;</code>'],
    ['`**not bold**`', '<code>**not bold**</code>'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['**<img src=x onerror=alert(1)>**', '<strong>&lt;img src=x onerror=alert(1)&gt;</strong>'],
    ['\u001b[31mred\u001b[0m', 'red'],
  ])('inline(%j) is %j', (md, html) => {
    expect(inline(md)).toBe(html);
  });

  it('writes the subset: headings, a table with an escaped pipe, nested and continued list items, a quote, a coloured diff', () => {
    const html = markdownHtml(['# Title', '', '| A | B |', '| --- | --- |', '| x \\| y | **z** |', '', '- one', '  - sub <b>', '  continued', '- two', '', '> **Rehearsal:** nothing sent', '', '```diff', '@@ -1 +1 @@', '-old', '+new', '```'].join('\n'));
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).toContain('<td>x | y</td><td><strong>z</strong></td>');
    expect(html).toContain('<li>one<br>continued<ul><li>sub &lt;b&gt;</li></ul></li>');
    expect(html).toContain('<blockquote><strong>Rehearsal:</strong> nothing sent</blockquote>');
    expect(html).toContain('<span class="hunk">@@ -1 +1 @@</span>\n<span class="del">-old</span>\n<span class="add">+new</span>');
  });

  it('replaces a whole ## section the caller names, up to the next one', () => {
    const html = markdownHtml(['## Keep', 'a', '## Swap', 'b', '### inner', 'c', '## After', 'd'].join('\n'), { sections: { Swap: () => '<p>swapped</p>' } });
    expect(html).toBe(['<h2 id="keep">Keep</h2>', '<p>a</p>', '<p>swapped</p>', '<h2 id="after">After</h2>', '<p>d</p>'].join('\n'));
  });
});

describe('sessionHtml on a real lab report', () => {
  const data = fixture<ReportData>('lab-healthy-tui.json');
  const md = renderMarkdown(data);
  const html = sessionHtml(data, md);

  it('report.md holds a valid gantt of the timeline; report.html is self-contained with the SVG of the same bars', () => {
    checkGantt(md, data.timeline);
    const bars = checkHtml(html, data.timeline);
    expect(bars.filter((b) => b.by === 'operator').length).toBeGreaterThanOrEqual(5);
    expect(html).not.toContain('```mermaid');
    expect(html).toContain('America/New_York (EST, UTC-05:00)');
  });

  it('says what report.md says: every section, the verification as panels (status, title, time, evidence for the amber one)', () => {
    for (const h of md.matchAll(/^## (.+)$/gm)) expect(html).toContain(`>${h[1]!.replace(/&/g, '&amp;').replace(/'/g, '&apos;')}</h2>`);
    const panels = [...html.matchAll(/<article class="panel (\w+)" data-check="([^"]+)">/g)].map((m) => [m[2], m[1]]);
    expect(panels).toEqual(data.verification!.results.map((r) => [r.id, r.status]));
    expect(html).toMatch(/<article class="panel warn" data-check="nodes">\n<header><span class="badge">WARN<\/span><h3>Nodes, pods and the platform agent<\/h3><span class="spec">9\.3\.6<\/span><span class="time">\d+ms<\/span><\/header>\n<p>[^<]+<\/p>\n<ul><li>pod kube-system\/coredns/);
    expect(html).toContain('<span class="overall warn">WARN</span> 5 green, 0 red, 1 amber, 0 unknown');
  });

  it('escapes what came from the cluster or the operator', () => {
    const hostile = structuredClone(data);
    hostile.session.cluster.name = '<img src=x onerror=alert(1)>';
    hostile.verification!.results[0]!.summary = '<script>alert("panel")</script>';
    hostile.timeline.sections[1]!.bars[0]!.label = '</text><script>alert(2)</script>';
    const page = sessionHtml(hostile, renderMarkdown(hostile));
    checkHtml(page, hostile.timeline);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&lt;script&gt;alert(&quot;panel&quot;)&lt;/script&gt;');
  });
});

describe('fleetHtml on a real lab fleet report', () => {
  it('holds a valid gantt and the SVG of the same bars: each cluster a bar, the soak, the gate, the skip, the halt', () => {
    const data = fixture<FleetReport>('lab-fleet.json');
    const md = fleetMarkdown(data);
    checkGantt(md, data.timeline);
    const bars = checkHtml(fleetHtml(data, md), data.timeline);
    expect(bars.map((b) => `${b.id} ${b.status}`).sort()).toEqual(
      ['canary.soak1 ok', 'canary.store-001.run1 ok', 'wave-1.gate ok', 'wave-1.store-002.run1 ok', 'wave-1.store-003.run1 ok', 'wave-1.store-004.run1 failed', 'wave-2.store-006.skipped skipped'].sort(),
    );
    expect(data.timeline.marks).toEqual([expect.objectContaining({ label: expect.stringMatching(/^stage wave-1 halted: 1 failure/), status: 'failed' })]);
  });
});
