import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { plannedEntries } from '../../src/engine/entries.js';
import { bundledRunbook } from '../../src/engine/load.js';
import { RunbookSchema } from '../../src/steps/runbook-schema.js';
import type { SessionMeta } from '../../src/engine/state.js';
import { StepRegistry } from '../../src/engine/step-kind.js';
import { parseYaml } from '../../src/engine/yaml-source.js';
import { LabShellFrame } from '../../src/screens/LabShell.js';
import { runbookOutline } from '../../src/run/runbook-outline.js';
import { keys, plain, press, waitForFrame } from '../support/ui.js';

describe("the lab's first frame, drawn before the lab starts", () => {
  it('outlines the bundled runbook without site parameters: the same steps and titles the session will show', () => {
    const outline = runbookOutline(bundledRunbook());
    expect(outline.title).toBe('VM orchestration pack upgrade');
    const raw = parseYaml(readFileSync(bundledRunbook(), 'utf8'), 'runbook', 'runbook').value as { steps: unknown };
    const expected = plannedEntries({ steps: RunbookSchema.shape.steps.parse(raw.steps) } as never, new StepRegistry());
    expect(outline.entries.map((e) => e.title)).toEqual(expected.map((e) => e.title));
    expect(outline.entries.map((e) => e.title)).toContain('Preflight checks');
  });

  it.each([
    ['a file that is not there', (dir: string) => join(dir, 'missing.yaml')],
    ['YAML that does not parse', (dir: string) => (writeFileSync(join(dir, 'bad.yaml'), 'steps: [unclosed'), join(dir, 'bad.yaml'))],
    ['steps of the wrong shape', (dir: string) => (writeFileSync(join(dir, 'odd.yaml'), 'steps: 3\n'), join(dir, 'odd.yaml'))],
  ])('shows no steps for %s (the session reports what is wrong)', (_what, make) => {
    const outline = runbookOutline(make(mkdtempSync(join(tmpdir(), 'up-shell-'))));
    expect(outline.entries).toEqual([]);
  });

  it('draws the header, the steps and what is happening; q asks to stop, once the lab is up', async () => {
    const meta = {
      id: 'starting…',
      mode: 'live',
      lab: true,
      runbook: { title: 'VM orchestration pack upgrade' },
      cluster: { name: 'the lab (healthy)' },
    } as SessionMeta;
    const onQuit = vi.fn();
    const ui = render(<LabShellFrame meta={meta} entries={runbookOutline(bundledRunbook()).entries} doing="Starting the embedded lab" onQuit={onQuit} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toMatch(/ LAB +session starting…/); // one badge: the lab, never LIVE beside it
    expect(frame).not.toMatch(/\bLIVE\b/);
    expect(frame).toContain('Preflight checks');
    expect(frame).toContain('Starting the embedded lab…');
    expect(frame).toContain('q quit');
    await press(ui.stdin, 'x', keys.enter);
    expect(onQuit).not.toHaveBeenCalled();
    await press(ui.stdin, 'q');
    await waitForFrame(ui.lastFrame, (f) => f.includes('Stopping once the lab has started'));
    expect(onQuit).toHaveBeenCalledTimes(1);
    // q is the operator's quit (exit 3), told apart from Ctrl+C (an interruption, 130).
    expect(onQuit).toHaveBeenCalledWith('q');
    ui.unmount();
  });
});
