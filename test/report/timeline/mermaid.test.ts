/**
 * The Mermaid gantt the reports write: names made safe for both of Mermaid's gantt lexers (a table
 * of hostile names, each checked by the grammar validator), and a whole timeline's block valid,
 * with a task per bar, failures `crit`, the operator's waits `done`, the booked window cut at the
 * run's end when it runs far past it. The validator itself holds the grammar's rules (a table of
 * lines it must refuse).
 */
import { describe, expect, it } from 'vitest';
import { mermaidText, timelineMermaid } from '../../../src/report/timeline/mermaid.js';
import type { Timeline } from '../../../src/report/timeline/schema.js';
import { mermaidBlock, validateGantt } from '../../support/mermaid-gantt.js';

const block = (lines: string[]) => mermaidBlock(lines.join('\n'))!;
const head = ['gantt', '    title T', '    dateFormat YYYY-MM-DD HH:mm:ss', '    section S'];
const task = (name: string, data = 't1, 2026-12-02 01:00:00, 2026-12-02 01:00:05') => validateGantt([...head, `    ${name} :${data}`].join('\n'));

describe('the grammar validator (gantt.jison, old and new lexers)', () => {
  it.each([
    ['a plain task', 'drafts · 2 profiles', undefined, []],
    // The name ends at the first colon: the rest is read as the task's data.
    ['a colon in the name', 'restart ns:vm', undefined, ['task id "vm :t1" is not a plain name']],
    ['a hash in the name', 'vm #3', undefined, ['holds # : or ;']],
    ['a semicolon in the name', 'a;b', undefined, ['";" ends a statement']],
    ['a comment in the name', 'a %% b', undefined, ['"%%" starts a comment']],
    ['a percent second', 'a%b', undefined, ['"%" second']],
    ['a keyword first', 'gantt-east', undefined, ['starts with a word the lexer reads as a statement']],
    ['another keyword first, any case', 'Title screen', undefined, ['starts with a word']],
    ['a date first', '2026-12-02 restart', undefined, ['starts with a word']],
    ['an unknown tag', 'x', 'late, t1, 2026-12-02 01:00:00, 2026-12-02 01:00:05', ['is not "tags, id, start, end"']],
    ['a date not in the format', 'x', 't1, 2026-12-02T01:00:00, 2026-12-02 01:00:05', ['is not a date in the dateFormat']],
    ['a day that does not exist', 'x', 't1, 2026-02-30 01:00:00, 2026-02-30 01:00:05', ['is not a date in the dateFormat']],
    ['an end before the start', 'x', 't1, 2026-12-02 01:00:05, 2026-12-02 01:00:00', ['ends before it starts']],
    ['tags first', 'x', 'crit, done, t1, 2026-12-02 01:00:00, 2026-12-02 01:00:05', []],
  ])('%s', (_, name, data, expected) => {
    const problems = task(name, data).problems;
    if (expected.length === 0) expect(problems).toEqual([]);
    else for (const e of expected) expect(problems.join('\n')).toContain(e);
  });

  it('refuses a section name with a colon, a bad tickInterval, a task outside any section, an id used twice, an empty section', () => {
    expect(validateGantt(['gantt', '    dateFormat YYYY-MM-DD HH:mm:ss', '    section Hop 1: a', '    x :t1, 2026-12-02 01:00:00, 2026-12-02 01:00:01'].join('\n')).problems.join()).toContain('section "Hop 1: a"');
    expect(validateGantt(['gantt', '    dateFormat YYYY-MM-DD HH:mm:ss', '    tickInterval 10 seconds', '    section S', '    x :t1, 2026-12-02 01:00:00, 2026-12-02 01:00:01'].join('\n')).problems.join()).toContain('tickInterval');
    expect(validateGantt(['gantt', '    dateFormat YYYY-MM-DD HH:mm:ss', '    x :t1, 2026-12-02 01:00:00, 2026-12-02 01:00:01'].join('\n')).problems.join()).toContain('a task before any section');
    const twice = validateGantt([...head, '    x :t1, 2026-12-02 01:00:00, 2026-12-02 01:00:01', '    y :t1, 2026-12-02 01:00:00, 2026-12-02 01:00:01', '    section Empty'].join('\n')).problems.join('\n');
    expect(twice).toContain('"t1" is used twice');
    expect(twice).toContain('section "Empty" holds no task');
  });
});

describe('mermaidText', () => {
  it.each([
    ['restart ns/vm', 'restart ns/vm'],
    ['Publish: vmo-infra 1.5.0', 'Publish∶ vmo-infra 1.5.0'],
    ['a #1; b', 'a ＃1, b'],
    ['50%% done', '50％％ done'],
    ['two\nlines\r\nhere', 'two lines here'],
    ['gantt-east', '› gantt-east'],
    ['section 2', '› section 2'],
    ['2026-12-02 stop', '› 2026-12-02 stop'],
    ['   ', '-'],
    ['x'.repeat(200), `${'x'.repeat(119)}…`],
  ])('%j → %j, and a task of it is valid', (input, out) => {
    expect(mermaidText(input)).toBe(out);
    expect(task(mermaidText(input)).problems).toEqual([]);
  });
});

const T0 = Date.parse('2026-12-02T01:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const timeline: Timeline = {
  from: at(0),
  to: at(600),
  timeZone: 'Europe/Berlin',
  windows: [{ from: at(0), to: at(14_400), label: 'booked window, 4h00m from the start (params window)' }],
  sections: [
    {
      id: 'hop1',
      title: 'Hop 1 4.4.10 → 4.5.4',
      bars: [
        { id: 'hop1.draft', label: 'drafts', from: at(1), to: at(1.2), by: 'tool', status: 'ok', note: '2 profiles' },
        { id: 'hop1.wait1', label: 'publish vmo-infra 1.5.0?', from: at(2), to: at(100), by: 'operator', status: 'ok' },
        { id: 'hop1.restart.ns/db:1', label: 'restart ns/db:1', from: at(300), to: at(360), by: 'cluster', status: 'failed', note: 'not back: did not run again; #retry' },
      ],
      forecast: { from: at(110), p50At: at(400), p90At: at(700), p50Seconds: 290, p90Seconds: 590, to: at(380), tookSeconds: 270 },
    },
  ],
  marks: [{ at: at(600), label: 'stopped at the restart gate', status: 'stopped' }],
};

describe('timelineMermaid', () => {
  it('writes a valid block: a section per hop, a task per bar, the forecast, the window cut at the run, the marks as milestones', () => {
    const lines = timelineMermaid(timeline, 'Upgrade of east: 4.4 → 4.6');
    expect(lines[0]).toBe('```mermaid');
    expect(lines.at(-1)).toBe('```');
    const g = validateGantt(block(lines));
    expect(g.problems).toEqual([]);
    expect(g.title).toBe('Upgrade of east∶ 4.4 → 4.6 (UTC)');
    expect(g.sections).toEqual(['Booked window', 'Hop 1 4.4.10 → 4.5.4', 'End']);
    expect(g.tasks.map((t) => [t.name, t.tags.join(' ')])).toEqual([
      ['booked window, 4h00m from the start (params window), until 05∶00∶00 UTC', 'done'],
      ['drafts · 2 profiles', ''],
      ['waiting, publish vmo-infra 1.5.0?', 'done'],
      ['restart ns/db∶1 · not back∶ did not run again, ＃retry', 'crit'],
      ['predicted end p50..p90 · 5m-10m', 'active'],
      ['cluster work · took 5m', ''],
      ['stopped at the restart gate', 'milestone'],
    ]);
    // A bar under a second is drawn a second long; the window ends where the axis does (the forecast's p90).
    expect(g.tasks[1]!.end - g.tasks[1]!.start).toBe(1000);
    expect(g.tasks[0]!.end).toBe(Date.parse(at(700)));
    expect(lines).toContain('    tickInterval 2minute');
    expect(lines).toContain('    axisFormat %H:%M:%S');
  });
});
