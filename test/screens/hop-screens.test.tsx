import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/screens/App.js';
import { noApprovals } from '../../src/engine/approval-policy.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { tuiConfirm } from '../../src/run/confirm.js';
import { addonProfile, CLUSTER_UID, deployedFrom, infraProfile, startLab, type Lab } from '../lab/palette/support.js';
import { ProfileStore } from '../../src/lab/palette/store.js';
import { fullHopSteps, onePackHop, paletteRun, runbookYaml } from '../support/palette-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { keys, pane, press, waitForFrame, words } from '../support/ui.js';
import { until } from '../support/wait.js';

let lab: Lab | undefined;
afterEach(async () => {
  await lab?.close();
  lab = undefined;
});

function mount(l: Lab, gateGuardMs = 0, guardClock?: ManualClock) {
  const run = paletteRun(l, 'spec', runbookYaml(onePackHop(), fullHopSteps));
  const queue = new ConfirmQueue();
  const ctrl = new AbortController();
  const runner = run.runner({ confirm: tuiConfirm(queue, noApprovals, false), signal: ctrl.signal });
  const outcome = runner.run();
  const ui = render(<App controller={{ source: runner, queue, rehearsal: false, outcome, stop: (reason) => ctrl.abort(reason), gateGuardMs, ...(guardClock ? { guardClock: guardClock.now } : {}) }} />);
  return { ui, outcome, queue };
}

describe('hop screens', () => {
  it('the draft gate shows each pack, the values diff and the new label; keys approve; the reconcile panel is live', async () => {
    // The cluster keeps reporting what it had until the test lets it reconcile.
    const before = deployedFrom(new ProfileStore([addonProfile(), infraProfile()]));
    let reconciled = false;
    lab = await startLab('spec', {
      hooks: { clusterProfiles: (uid) => (uid !== CLUSTER_UID ? undefined : reconciled ? deployedFrom(lab!.store) : before) },
    });
    const { ui, outcome } = mount(lab);
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write the draft of vmo-infra 2.1.0') && f.includes('Draft of vmo-infra'));
    expect(words(pane(frame))).toMatch(/Draft of vmo-infra \(profile-infra-0001\) version 2\.0\.0 → 2\.1\.0/);
    expect(words(pane(frame))).toMatch(/cni-cilium-oss 1\.16\.3 → 1\.17\.1/);
    expect(frame).toContain('[y] Write draft');
    await press(ui.stdin, 'y');
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write the draft of vmo-core 1.3.0'));
    await press(ui.stdin, 'y');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Publish vmo-infra 2.1.0'));
    expect(words(pane(frame))).toMatch(/every cluster using vmo-infra \(here lab-cluster\) reconciles against 2\.1\.0/);
    await press(ui.stdin, keys.left, keys.enter); // focus moves from the safe option to "Publish" (←); Enter chooses it
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Publish vmo-core 1.3.0'));
    await press(ui.stdin, 'y');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('WAITING') && f.includes('next poll in'));
    expect(words(pane(frame))).toMatch(/WAITING vmo-infra deployed 2\.0\.0 · expected 2\.1\.0: cni-cilium-oss 1\.17\.1/);
    expect(words(pane(frame))).toMatch(/• version 2\.0\.0 \(expected 2\.1\.0\)/);
    reconciled = true;
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('DONE: every step finished.'));
    expect((await outcome).status).toBe('done');
    ui.unmount();
  });

  // The second y reaches the next gate (drawn when it is typed); the guard's clock alone decides whether it counts.
  it.each([
    ['inside its guard time: dropped', 0, ['/v1/clusterprofiles/profile-infra-0001/publish']],
    ['after its guard time: it publishes the second profile', 400, ['/v1/clusterprofiles/profile-infra-0001/publish', '/v1/clusterprofiles/profile-addon-0001/publish']],
  ])('yy at "Publish vmo-infra", the second y at "Publish vmo-core" %s', async (_name, elapsed, published) => {
    lab = await startLab('spec');
    const guard = new ManualClock();
    const { ui, queue } = mount(lab, 300, guard);
    for (const title of ['GATE: Write the draft of vmo-infra 2.1.0', 'GATE: Write the draft of vmo-core 1.3.0', 'GATE: Publish vmo-infra 2.1.0']) {
      await waitForFrame(ui.lastFrame, (f) => f.includes(title));
      guard.advance(400);
      await press(ui.stdin, 'y');
    }
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Publish vmo-core 1.3.0'));
    expect(frame).toMatch(/❯ \[n\] Not now/);
    guard.advance(elapsed);
    await press(ui.stdin, 'y');
    const patches = () => lab!.audit.entries({ method: 'PATCH' }).map((e) => e.path);
    if (elapsed === 0) {
      // Not answered: an answer closes the gate in the key's own handler.
      expect(queue.current()?.title).toBe('Publish vmo-core 1.3.0');
    } else {
      await until('the second publish', () => patches().length === 2);
    }
    expect(patches()).toEqual(published);
    ui.unmount();
  });

  it('shows the red no-op panel when the API ignores the draft', async () => {
    lab = await startLab('spec');
    lab.faults.set([{ route: 'PUT /v1/clusterprofiles/*', faults: { ignorePut: true } }]);
    const { ui, outcome } = mount(lab);
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write the draft of vmo-infra'));
    await press(ui.stdin, 'y');
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('FAIL The API accepted the change but did not apply it'));
    expect(frame).toContain('STOPPED: a step failed (details below).');
    expect(words(pane(frame))).toMatch(/The draft read back does not hold what was sent \(a silent no-op\)\. Nothing was published\./);
    expect((await outcome).status).toBe('failed');
    ui.unmount();
  });

  it('Esc at the draft gate writes nothing and stops with the session saved', async () => {
    lab = await startLab('spec');
    const { ui, outcome } = mount(lab);
    await waitForFrame(ui.lastFrame, (f) => f.includes('GATE: Write the draft'));
    await press(ui.stdin, keys.escape);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('STOPPED'));
    expect(words(pane(frame))).toMatch(/Declined: the draft of vmo-infra was not written/);
    expect((await outcome).status).toBe('stopped');
    expect(lab.audit.entries({ method: 'PUT' })).toHaveLength(0);
    ui.unmount();
  });
});
