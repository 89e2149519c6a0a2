/**
 * The checks every report's pictures must pass, for the tests that write real reports: report.md's
 * Mermaid gantt against the grammar (mermaid-gantt.ts), with a task for each bar of the JSON's
 * timeline; report.html self-contained (no script, nothing to fetch) with its SVG well-formed XML
 * whose bars are the JSON's bars at their times, in time order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import type { Timeline } from '../../src/report/timeline/schema.js';
import { mermaidBlock, validateGantt, type GanttResult } from './mermaid-gantt.js';

export interface SvgBar {
  id: string;
  from: string;
  to: string;
  status: string;
  by: string;
  x: number;
  width: number;
}

/** The `<svg>` of a page. */
export function svgOf(html: string): string {
  const svg = /<svg [\s\S]*?<\/svg>/.exec(html)?.[0];
  expect(svg, 'report.html holds an <svg>').toBeDefined();
  return svg!;
}

/** Every bar of the SVG (a rect with data-bar-id), parsed as XML. */
export function svgBars(svg: string): SvgBar[] {
  const valid = XMLValidator.validate(svg);
  expect(valid, `the SVG is well-formed XML: ${JSON.stringify(valid)}`).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg) as unknown;
  const out: SvgBar[] = [];
  const walk = (node: unknown, name: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, name));
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (name === 'rect' && typeof o['data-bar-id'] === 'string') {
      out.push({ id: o['data-bar-id'], from: String(o['data-from']), to: String(o['data-to']), status: String(o['data-status']), by: String(o['data-by']), x: Number(o.x), width: Number(o.width) });
    }
    for (const [k, v] of Object.entries(o)) walk(v, k);
  };
  walk(doc, '');
  return out;
}

/** report.html: one page, no script, nothing fetched, its SVG's bars those of the timeline. */
export function checkHtml(html: string, t: Timeline): SvgBar[] {
  expect(html).toMatch(/^<!DOCTYPE html>\n/);
  expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  // Every tag is one of a known few, with no handler, no link and no load; text is escaped, so it has no tags.
  const allowed = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'footer', 'h1', 'h2', 'h3', 'h4', 'p', 'br', 'em', 'strong', 'code', 'pre', 'span', 'blockquote', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li', 'figure', 'figcaption', 'section', 'article', 'header', 'svg', 'defs', 'pattern', 'g', 'rect', 'line', 'path', 'text']);
  for (const [, name, attrs] of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(allowed.has(name!.toLowerCase()), `<${name}> in report.html`).toBe(true);
    expect(attrs, `<${name}${attrs}>`).not.toMatch(/\son[a-z]+\s*=|\b(src|href|xlink:href|action)\s*=|javascript:|url\((?!#)/i);
  }
  // The page's style and the SVG's own, inline; no other.
  expect(html.match(/<style>/g)).toHaveLength(2);
  const bars = svgBars(svgOf(html));
  const json = t.sections.flatMap((s) => s.bars);
  expect(bars.map((b) => b.id).sort()).toEqual(json.map((b) => b.id).sort());
  for (const b of json) expect(bars.find((x) => x.id === b.id)).toMatchObject({ from: b.from, to: b.to, status: b.status, by: b.by });
  // Drawn in time order: a later start is never left of an earlier one, and no bar runs backwards.
  const byTime = [...bars].sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  for (let i = 1; i < byTime.length; i++) expect(byTime[i]!.x).toBeGreaterThanOrEqual(byTime[i - 1]!.x - 0.1);
  for (const b of bars) expect(b.width).toBeGreaterThan(0);
  return bars;
}

/** report.md's gantt: valid, a section per timeline section, a task per bar, within the run. */
export function checkGantt(md: string, t: Timeline): GanttResult {
  const block = mermaidBlock(md);
  expect(block, 'report.md holds a mermaid block').toBeDefined();
  const g = validateGantt(block!);
  expect(g.problems).toEqual([]);
  expect(g.sections.filter((s) => !['Booked window', 'End'].includes(s))).toHaveLength(t.sections.length);
  const forecasts = t.sections.reduce((n, s) => n + (s.forecast ? (s.forecast.to ? 2 : 1) : 0), 0);
  expect(g.tasks).toHaveLength(t.sections.reduce((n, s) => n + s.bars.length, 0) + forecasts + t.windows.length + t.marks.length);
  const from = Math.floor(Date.parse(t.from) / 1000) * 1000;
  const latest = Math.max(Date.parse(t.to), ...t.windows.map((w) => Date.parse(w.to)), ...t.sections.flatMap((s) => (s.forecast ? [Date.parse(s.forecast.p90At)] : [])));
  for (const task of g.tasks) {
    expect(task.start).toBeGreaterThanOrEqual(from);
    expect(task.end).toBeLessThanOrEqual(Math.ceil(latest / 1000) * 1000 + 1000);
  }
  return g;
}

/** A session folder's report, read as the e2e tests read it, with its pictures checked on the way. */
export function readCheckedReport<T extends { timeline: Timeline }>(dir: string): { md: string; data: T; html: string } {
  const md = readFileSync(join(dir, 'report.md'), 'utf8');
  const data = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as T;
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  checkGantt(md, data.timeline);
  checkHtml(html, data.timeline);
  return { md, data, html };
}
