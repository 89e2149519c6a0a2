/**
 * The palette flavor's screens in the app, against the whole lab playing a real Palette (`repave`
 * scenario: one hop whose infra change rebuilds nodes): the apply gate, the repave gate and the
 * reconcile step's live cluster-status panel, driven by keys.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { findStep } from '../../src/engine/state.js';
import { startLab, type LabHandle } from '../../src/lab/index.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { labRun, type LabRun } from '../support/lab-harness.js';
import { pane, press, waitForFrame, words } from '../support/ui.js';
import { HELD_SPEED, steps } from '../support/lab-time.js';

// No customize step: its review is a screen of its own; drafts then carry the profiles' own values.
const RUNBOOK = `apiVersion: upgrade-pilot/v1
kind: Runbook
metadata: { name: palette-screens, title: Palette screens }
steps:
  - { id: plan, kind: plan }
  - id: hop
    forEach: hops
    steps:
      - { id: draft-infra, kind: draft, with: { profile: infra } }
      - { id: draft-addon, kind: draft, with: { profile: addon } }
      - { id: publish-infra, kind: publish, with: { profile: infra } }
      - { id: publish-addon, kind: publish, with: { profile: addon } }
      - { id: apply, kind: apply }
      - { id: repave, kind: repave, with: { interval: 5s, timeout: 2m } }
      - { id: reconcile, kind: reconcile, with: { interval: 15s, timeout: 2h } }
`;

/** The text is on screen, wherever the frame wraps it. */
const shows = (frame: string, text: string) => words(pane(frame)).includes(text);

let lab: LabHandle | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

async function startPaletteLab(): Promise<{ lab: LabHandle; run: LabRun }> {
  lab = await startLab({ scenario: 'repave', stateDir: mkdtempSync(join(tmpdir(), 'up15-tui-')), speed: 150, seed: 21, flavor: 'palette' });
  const file = join(mkdtempSync(join(tmpdir(), 'up15-rb-')), 'runbook.yaml');
  writeFileSync(file, RUNBOOK);
  return { lab, run: labRun(lab, file) };
}

function mount(run: LabRun) {
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  // Drafts and publishes are approved by flags; the apply and the repave are asked on screen.
  const runner = run.runner({ confirm: tuiConfirm(queue, { ...noApprovals, gates: ['draft', 'publish'] }, false), signal: ctrl.signal });
  const outcome = runner.run();
  const ui = render(<App controller={{ source: runner, queue, rehearsal: false, outcome, stop: (reason) => ctrl.abort(reason), gateGuardMs: 0 }} />);
  return { ui, outcome };
}

describe('palette flavor screens', () => {
  it('the apply gate; the repave gate (declined: nothing sent; resumed: approved); the live cluster-status panel until every pack is Ready', async () => {
    const { lab: l, run } = await startPaletteLab();
    let { ui, outcome } = mount(run);
    let frame = await waitForFrame(ui.lastFrame, (f) => shows(f, 'GATE: Apply vmo-infra 1.6.0 and vmo-core-addon 1.6.0 to vmo-prod-east'), 60_000);
    let text = words(pane(frame));
    expect(text).toMatch(/vmo-prod-east \(\w+\) runs vmo-infra 1\.5\.0, vmo-core-addon 1\.5\.0; one request attaches the new versions in their place \(replaceWithProfile\)/);
    expect(text).toMatch(/KubeVirt then moves the running VMs onto the new launcher: 7 live-migrate, 0 evicted, 1 need a restart, 1 not running \(each restart is asked for after the rollout\)/);
    expect(text).toMatch(/kubernetes changes: Palette may ask to rebuild every node \(asked next\)/);
    expect(text).toMatch(/• vmo-infra 1\.5\.0 \(uid \w+\) → 1/);
    expect(frame).toContain('[y] Apply to the cluster');
    expect(l.world.palette?.attachedProfiles()[0]?.version).toBe('1.5.0');
    await press(ui.stdin, 'y');

    frame = await waitForFrame(ui.lastFrame, (f) => shows(f, 'GATE: Approve the node rebuild (repave) of vmo-prod-east'), 30_000);
    text = words(pane(frame));
    expect(text).toMatch(/Palette waits for approval to rebuild the nodes of vmo-prod-east: kubernetes 1\.32\.2 → 1\.32\.3/);
    expect(text).toMatch(/7 node\(s\) \(3 control plane, 4 worker\) are drained and rebuilt one at a time, control plane first/);
    expect(text).toMatch(/• vmo-cp-1, vmo-cp-2, vmo-cp-3: no running VMs/);
    expect(text).toMatch(/• vmo-worker-3: ns-packs\/build-cache-01 restarts/);
    expect(text).toMatch(/1 VM\(s\) cannot live-migrate/);
    expect(frame).toContain('[y] Approve the rebuild');
    await press(ui.stdin, 'n');
    expect((await outcome).status).toBe('stopped');
    frame = await waitForFrame(ui.lastFrame, (f) => shows(f, 'Declined: the nodes of vmo-prod-east were not rebuilt'), 10_000);
    expect(words(pane(frame))).toMatch(/The way back, one hop at a time: vmo-infra: attach vmo-infra 1\.5\.0/);
    expect(l.audit.entries({ api: 'palette' }).filter((e) => e.path.endsWith('/repave/approve'))).toEqual([]);
    expect(l.world.palette?.view(l.clusterUid)?.repave).toBe('Pending');
    ui.unmount();

    // Resumed: asked again; approved, the watch shows the packs of the new versions, the conditions and the events.
    ({ ui, outcome } = mount(run));
    await waitForFrame(ui.lastFrame, (f) => shows(f, 'GATE: Approve the node rebuild (repave) of vmo-prod-east'), 30_000);
    // From here the lab's clock moves only when the test moves it, a step at a time once the tool
    // waits again: every poll reads the world at its own lab time, and its frame stays on screen
    // until the next step, on a quiet machine or a busy one.
    l.clock.setSpeed(HELD_SPEED);
    let ended = false;
    void outcome.finally(() => (ended = true));
    const lab30s = steps(l.clock, run.clock, () => ended);
    await press(ui.stdin, 'y');
    const seen = { progressing: undefined as string | undefined, partWay: undefined as string | undefined };
    for (let t = 0; t < 4 * 3_600_000 && !ended; t += 30_000) {
      await lab30s.advance(30_000);
      const f = ui.lastFrame() ?? '';
      if (shows(f, 'Cluster vmo-prod-east') && /PROGRESSING/.test(f) && /Latest events \d\d:\d\d:\d\d/.test(words(pane(f)))) seen.progressing ??= f;
      // Part way: some packs Ready (on one line), the rest still going, one line each.
      if (/READY +[1-7]\/8: /.test(f) && /PROGRESSING/.test(f)) seen.partWay ??= f;
    }
    expect(seen.progressing, 'a frame with the packs progressing and the latest events').toBeDefined();
    text = words(pane(seen.progressing!));
    expect(text).toMatch(/PROGRESSING \S+ \S+ vmo-/);
    expect(text).toMatch(/node rebuild Approved/);
    expect(seen.partWay, 'a frame with some packs Ready and the rest progressing').toBeDefined();
    expect(words(pane(seen.partWay!))).toMatch(/Conditions (all 2 True|(ControlPlaneReady|WorkerNodesReady)=False)/);
    await waitForFrame(ui.lastFrame, (f) => shows(f, 'DONE: every step finished.'), 120_000);
    expect((await outcome).status).toBe('done');
    expect(l.audit.entries({ api: 'palette' }).filter((e) => e.path.endsWith('/repave/approve') && e.effect === 'applied')).toHaveLength(1);
    const state = run.store.load(run.id);
    expect(findStep(state, 'hop1.reconcile')?.output).toMatchObject({ cluster: { packs: expect.arrayContaining([expect.objectContaining({ pack: 'kubernetes', state: 'ready' })]) } });
    ui.unmount();
  }, 300_000);
});
