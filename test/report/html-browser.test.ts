/**
 * report.html in a real headless browser (Debian's chromium, driven by playwright-core), on real lab
 * reports (test/fixtures/report): opened from a file with no network, it loads nothing but itself,
 * runs no script, logs no error, and draws the timeline: every bar of the JSON on screen with a size,
 * left to right in time order, inside the figure; the verification panels laid out. Screenshots of
 * the page and of the timeline are written (their paths printed) for a person to look at. Where no
 * browser is installed the test says so and is skipped.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetHtml } from '../../src/fleet/report-pictures.js';
import { fleetMarkdown } from '../../src/fleet/report-markdown.js';
import type { FleetReport } from '../../src/fleet/report-schema.js';
import { sessionHtml } from '../../src/report/html/session.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { ReportData } from '../../src/report/model.js';
import type { Timeline } from '../../src/report/timeline/schema.js';

const CHROMIUM = '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
const fixture = <T>(name: string) => JSON.parse(readFileSync(new URL(`../fixtures/report/${name}`, import.meta.url), 'utf8')) as T;
const out = join(tmpdir(), 'upgrade-pilot-report-screenshots');

let context: BrowserContext | undefined;
beforeAll(async () => {
  if (!hasBrowser) return;
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'up-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 1000 },
    offline: true,
  });
}, 60_000);
afterAll(async () => {
  await context?.close();
});

interface Drawn {
  scripts: number;
  figure: { x: number; width: number; height: number };
  bars: Array<{ id: string; from: string; x: number; width: number; height: number }>;
  panels: number;
}

async function open(name: string, html: string, t: Timeline): Promise<Drawn> {
  mkdirSync(out, { recursive: true });
  const file = join(out, `${name}.html`);
  writeFileSync(file, html);
  const page = await context!.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  // Runs in the page (the DOM's types are not this project's): what the browser laid out.
  const drawn = await page.evaluate<Drawn>(`(() => {
    const box = (e) => e.getBoundingClientRect();
    const figure = box(document.querySelector('figure.timeline svg'));
    return {
      scripts: document.scripts.length,
      figure: { x: figure.x, width: figure.width, height: figure.height },
      bars: [...document.querySelectorAll('rect[data-bar-id]')].map((r) => ({ id: r.getAttribute('data-bar-id'), from: r.getAttribute('data-from'), x: box(r).x, width: box(r).width, height: box(r).height })),
      panels: document.querySelectorAll('article.panel').length,
    };
  })()`);
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  await page.locator('figure.timeline').screenshot({ path: join(out, `${name}-timeline.png`) });
  console.log(`screenshots: ${join(out, `${name}.png`)} and ${join(out, `${name}-timeline.png`)}`);
  await page.close();
  expect(requests).toEqual([`file://${file}`]);
  expect(errors).toEqual([]);
  expect(drawn.scripts).toBe(0);
  expect(drawn.bars.map((b) => b.id).sort()).toEqual(t.sections.flatMap((s) => s.bars.map((b) => b.id)).sort());
  for (const b of drawn.bars) {
    expect(b.width, b.id).toBeGreaterThan(0);
    expect(b.height, b.id).toBeGreaterThan(8);
    expect(b.x + b.width, b.id).toBeLessThanOrEqual(drawn.figure.x + drawn.figure.width + 0.5);
  }
  const byTime = [...drawn.bars].sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  for (let i = 1; i < byTime.length; i++) expect(byTime[i]!.x).toBeGreaterThanOrEqual(byTime[i - 1]!.x - 0.5);
  expect(drawn.figure.width).toBeGreaterThan(1000);
  return drawn;
}

describe('report.html in a headless browser', () => {
  it.skipIf(!hasBrowser)(hasBrowser ? 'a session report opens offline, loads nothing, runs nothing, and draws every bar in time order beside the panels' : `skipped: no browser (${CHROMIUM})`, async () => {
    const data = fixture<ReportData>('lab-healthy-tui.json');
    const drawn = await open('session', sessionHtml(data, renderMarkdown(data)), data.timeline);
    expect(drawn.panels).toBe(data.verification!.results.length);
  }, 60_000);

  it.skipIf(!hasBrowser)(hasBrowser ? 'a fleet report likewise' : `skipped: no browser (${CHROMIUM})`, async () => {
    const data = fixture<FleetReport>('lab-fleet.json');
    await open('fleet', fleetHtml(data, fleetMarkdown(data)), data.timeline);
  }, 60_000);
});
