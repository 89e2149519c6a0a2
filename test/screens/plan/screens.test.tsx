import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PlanScreen } from '../../../src/screens/PlanScreen.js';
import { PreflightScreen } from '../../../src/screens/PreflightScreen.js';
import { SnapshotScreen } from '../../../src/screens/SnapshotScreen.js';
import type { StepScreenProps } from '../../../src/screens/step-screen.js';
import { keys, plain, press, waitForFrame, words } from '../../support/ui.js';
import { wallDate, wallTime } from '../../../src/text/time.js';
import { planOutput, preflightOutput, refusedPlan, sessionState, snapshotOutput, stepWith } from './fixtures.js';

const props = (step: StepScreenProps['step'], extra: Partial<StepScreenProps> = {}): StepScreenProps => ({
  step,
  state: sessionState(),
  isActive: true,
  rehearsal: false,
  width: 100, // ink-testing-library draws 100 columns
  height: 40,
  ...extra,
});

describe('PlanScreen', () => {
  it('shows the hops as a ladder, each profile change with its new label and source, and the VM impact with restarts first', () => {
    const ui = render(<PlanScreen {...props(stepWith('plan', { output: planOutput() }))} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toContain('Plan the upgrade virtual-machine-orchestrator 4.4.10 ─▶ 4.5.4 ─▶ 4.6.3 (2 hop(s), one minor each)');
    expect(frame).toContain('Hop 1: 4.4.10 → 4.5.4 deploys KubeVirt v1.3.1 · CDI v1.60.3');
    expect(frame).toContain('  vmo-infra version 1.4.0 → 1.5.0 (reference profile ref-infra-454)');
    expect(frame).toContain('  vmo-core-addon version 1.4.0 → 1.5.0 (values folder /srv/values)');
    expect(frame).toMatch(/ {4}virtual-machine-orchestrator +4\.5\.4 → 4\.6\.3/);
    expect(frame).toContain('VM impact 1 live-migrate, 1 evicted, 1 need a restart, 1 not running');
    const rows = frame.split('\n').filter((l) => /^(FATE|RESTART|EVICT|NOT RUNNING|LIVE-MIGRATE)/.test(l));
    expect(rows.map((r) => r.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['FATE', 'VM'],
      ['RESTART LATER', 'vms/build-cache-01'],
      ['EVICT', 'vms/batch-01'],
      ['NOT RUNNING', 'vms/legacy-app-01'],
      ['LIVE-MIGRATE', 'vms/web-01'],
    ]);
    // A reason longer than its cell is numbered there and given in full under the table.
    expect(rows[1]).toMatch(/node-3 +\[1\] cannot live-migrate \(DisksNotLive.*…$/);
    const reason = planOutput().impact.find((i) => i.vm === 'vms/build-cache-01')!.reason;
    expect(words(frame)).toContain(`Why, in full: [1] ${reason}`);
    expect(frame).toContain('• KubeVirt v1.2.0: workload update methods LiveMigrate; eviction strategy LiveMigrate.');
    ui.unmount();
  });

  it('says each hop’s window, p50 and p90 against the booked one, and its parts; the whole upgrade on top', () => {
    const out = planOutput();
    const eta = { p50Seconds: 13 * 3600 + 36 * 60, p90Seconds: 15 * 3600 + 27 * 60, summary: '', parts: [
      { what: 'pack-rollout' as const, p50Seconds: 600, p90Seconds: 1200, basis: '' },
      { what: 'migrations' as const, p50Seconds: 13 * 3600, p90Seconds: 15 * 3600, basis: '' },
      { what: 'restarts' as const, p50Seconds: 1560, p90Seconds: 420, basis: '' },
    ] };
    out.hops = out.hops.map((h) => ({ ...h, eta }));
    out.bookedWindowMs = 4 * 3_600_000;
    out.windowTotal = 'The 2 hops take about 27h12m-30h54m: MORE than the 4h00m window in the params file: even the typical case (p50 27h12m) is 6.8× the window; book a longer window or split the hops over two.';
    const ui = render(<PlanScreen {...props(stepWith('plan', { output: out }), { height: 60 })} />);
    const text = words(plain(ui.lastFrame()));
    expect(text).toContain('even the typical case (p50 27h12m) is 6.8× the window');
    expect(text).toContain('Hop 1: 4.4.10 → 4.5.4 deploys KubeVirt v1.3.1 · CDI v1.60.3 Window: p50 13h36m · p90 15h27m · MORE than the 4h00m window in the params file: even the typical case (p50 13h36m) is 3.4× the window');
    expect(text).toContain('rollout 10m-20m · VM moves 13h00m-15h00m · restarts 26m; plus your time at the restart gate (not predicted)');
    expect(text.match(/Window: p50 13h36m/g)).toHaveLength(2);
    ui.unmount();
  });

  it('windows a long impact table and scrolls it with the arrows', async () => {
    const out = planOutput();
    out.impact = Array.from({ length: 5000 }, (_, i) => ({ vm: `tenant/vm-${String(i).padStart(4, '0')}`, node: 'n1', fate: 'live-migrate' as const, reason: 'live-migratable' }));
    const ui = render(<PlanScreen {...props(stepWith('plan', { output: out }), { height: 30 })} />);
    let frame = plain(ui.lastFrame());
    // One scroll over the whole plan: every one of the 5,000 rows, then the notes, can be reached.
    expect(frame).toMatch(/lines 1-\d+ of 50\d\d/);
    await press(ui.stdin, 'G');
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('tenant/vm-4999'));
    expect(frame).toContain('• KubeVirt v1.2.0: workload update methods LiveMigrate');
    await press(ui.stdin, 'g', '/', ...'vm-0000', keys.enter);
    frame = await waitForFrame(ui.lastFrame, (f) => f.includes('"vm-0000": n next'));
    const first = frame.split('\n').findIndex((l) => l.includes('tenant/vm-0000'));
    await press(ui.stdin, keys.down);
    frame = await waitForFrame(ui.lastFrame, (f) => f.split('\n').findIndex((l) => l.includes('tenant/vm-0000')) === first - 1);
    ui.unmount();
  });

  it('j/k, G and g scroll the table; / finds a VM among thousands, n finds the next', async () => {
    const out = planOutput();
    out.impact = Array.from({ length: 5000 }, (_, i) => ({ vm: `tenant/vm-${String(i).padStart(4, '0')}`, node: 'n1', fate: 'live-migrate' as const, reason: i % 1000 === 42 ? 'needle' : 'live-migratable' }));
    const ui = render(<PlanScreen {...props(stepWith('plan', { output: out }), { height: 30 })} />);
    await press(ui.stdin, 'j', 'j');
    await waitForFrame(ui.lastFrame, (f) => /lines 3-\d+ of 50\d\d/.test(f));
    await press(ui.stdin, 'G');
    await waitForFrame(ui.lastFrame, (f) => f.includes('tenant/vm-4999'));
    await press(ui.stdin, 'g', '/', ...'needle', keys.enter);
    const frame = await waitForFrame(ui.lastFrame, (f) => f.includes('"needle": n next'));
    expect(frame).toContain('tenant/vm-0042');
    await press(ui.stdin, 'n');
    await waitForFrame(ui.lastFrame, (f) => f.includes('tenant/vm-1042'));
    ui.unmount();
  });

  it('shows a refused plan as a red panel with the reason and the fix', () => {
    const ui = render(<PlanScreen {...props(stepWith('plan', { status: 'failed', output: refusedPlan() }))} />);
    const frame = words(plain(ui.lastFrame()));
    expect(frame).toContain('FAIL The plan is refused');
    expect(frame).toContain('No 4.5.x version is available to step through from 4.4.10 to 4.6.3; skipping a minor version makes the automatic live migrations of running VMs fail');
    expect(frame).toContain('What to do: Add a reference profile (or a values folder entry) for a 4.5.x version of the pack, then plan again.');
    ui.unmount();
  });

  it('says when there is nothing to publish, and what it is doing while it reads', () => {
    const none = { ...planOutput(), hops: [], deployed: '4.6.3' };
    let ui = render(<PlanScreen {...props(stepWith('plan', { output: none }))} />);
    expect(plain(ui.lastFrame())).toContain('virtual-machine-orchestrator is already at 4.6.3: nothing to publish.');
    ui.unmount();
    ui = render(<PlanScreen {...props(stepWith('plan', { status: 'running', live: { headline: 'Reading the reference profiles…' } }))} />);
    expect(plain(ui.lastFrame())).toContain('Reading the reference profiles…');
    ui.unmount();
  });
});

describe('PreflightScreen', () => {
  it('shows one panel per question with its status in words; red and amber open with what to do', () => {
    const out = preflightOutput();
    const ui = render(<PreflightScreen {...props(stepWith('preflight', { status: 'failed', output: out }), { width: 80 })} />);
    const frame = words(plain(ui.lastFrame()));
    expect(frame).toContain('Preflight checks 2 green, 1 red, 1 amber, 1 not checked');
    expect(frame).toContain('kubectl v1.32.4 · cluster v1.32.2');
    expect(frame).toMatch(/PASS Profile API answers with this key and project 12ms http:\/\/palette answered/);
    expect(frame).toMatch(/FAIL The cluster access file stays valid through the window The client certificate .* before the planned window of 4h ends\. • file \/home\/op\/\.kube\/config, context lab, user operator What to do: Obtain a fresh cluster access file/);
    expect(frame).toMatch(/WARN Every node is Ready 1 of 3 node\(s\) not Ready\. • node-3: not Ready \(KubeletNotReady\) What to do: Live migrations need somewhere to go\./);
    expect(frame).toContain('UNKNOWN The storage cluster is healthy Not checked: the cluster did not answer.');
    expect(frame).not.toContain('• vmo-core-addon 1.4.0: virtual-machine-orchestrator 4.4.10'); // green stays closed
    ui.unmount();
  });

  it('opens and closes the focused panel with Enter', async () => {
    const ui = render(<PreflightScreen {...props(stepWith('preflight', { output: preflightOutput() }), { width: 80 })} />);
    await press(ui.stdin, keys.down, keys.enter);
    let frame = await waitForFrame(ui.lastFrame, (f) => f.includes('• vmo-core-addon 1.4.0'));
    expect(frame).toContain('╔'); // the focused panel has a double border
    await press(ui.stdin, keys.down, keys.enter);
    frame = await waitForFrame(ui.lastFrame, (f) => !f.includes('What to do: Obtain a fresh'));
    expect(frame).toContain('• vmo-core-addon 1.4.0');
    ui.unmount();
  });

  it('shows panels as they arrive while preflight runs', () => {
    const items = preflightOutput().items.slice(0, 2);
    const ui = render(<PreflightScreen {...props(stepWith('preflight', { status: 'running', live: { headline: 'Checking… 2 green, 0 red, 0 amber', running: true, items } }))} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toContain('Preflight checks · Checking… 2 green, 0 red, 0 amber');
    expect(frame.match(/PASS/g)).toHaveLength(2);
    ui.unmount();
  });
});

describe('SnapshotScreen', () => {
  it('shows the deployed profiles with their pack tags and the baseline as counts, and drift found on resume', () => {
    const drift = { at: '2026-03-01T13:00:00Z', ok: false, findings: ['vmo-core-addon: version 1.4.0 at the snapshot, now 1.4.1'] };
    const ui = render(<SnapshotScreen {...props(stepWith('snapshot', { output: snapshotOutput(), drift }))} />);
    const frame = plain(ui.lastFrame());
    expect(frame).toContain(`Record what is deployed recorded at ${wallDate('2026-03-01T12:00:00.000Z')} ${wallTime('2026-03-01T12:00:00.000Z')}`);
    expect(frame).toContain('  vmo-core-addon 1.4.0');
    expect(frame).toContain('    virtual-machine-orchestrator 4.4.10 · nginx 1.10.1');
    expect(frame).toContain('  VMs 3 (2 running, 1 not running) · KubeVirt v1.2.0 · CDI v1.58.0');
    expect(frame).toContain('  Nodes 3 (1 not Ready: node-3)');
    expect(frame).toContain('  Networks 1: vms/vlan-128');
    expect(frame).toContain('  Load-balancer addresses 1: ingress-nginx/ingress-nginx-controller 10.10.0.50');
    expect(frame).toContain('  Storage classes 1: px-vm-block');
    expect(frame).toContain('WARN Changed since the snapshot:');
    expect(frame).toContain('  • vmo-core-addon: version 1.4.0 at the snapshot, now 1.4.1');
    ui.unmount();
  });
});
