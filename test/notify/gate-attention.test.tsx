/** The TUI's bell: a gate after a long stretch without a key rings it; a gate while the operator types does not. */
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { GateAttention } from '../../src/notify/GateAttention.js';
import { ConfirmQueue } from '../../src/screens/confirm-queue.js';
import { restartGate } from '../support/timeline-story.js';
import { press } from '../support/ui.js';

const ring = (vm: string) => `\u0007\u001b]9;upgrade-pilot: vmo-prod-east: waiting for you: Restart VM ${vm}\u0007`;

describe('GateAttention', () => {
  it('rings (bell and desktop escape) for a gate that appears after the stretch, not for one right after a key', async () => {
    let now = 1_000_000;
    const written: string[] = [];
    const queue = new ConfirmQueue();
    const ui = render(
      <>
        <Text>app</Text>
        <GateAttention queue={queue} afterMs={120_000} write={(s) => written.push(s)} env={{ TERM_PROGRAM: 'iTerm.app' }} clusterName="vmo-prod-east" now={() => now} />
      </>,
    );
    // press() first lets React attach the component's key handler and its subscription to the queue.
    await press(ui.stdin, 'x');
    // The queue tells its subscribers as a gate opens, so whatever rings has rung when confirm returns.

    // A minute later (a key a minute ago): no bell.
    now += 60_000;
    void queue.confirm(restartGate('vms/db-1'));
    expect(written).toEqual([]);
    queue.answer('a/restart/vms/db-1', 'approve');

    // Three minutes with no key, then a gate: the bell and the notification (and still none for db-1).
    now += 180_000;
    void queue.confirm(restartGate('vms/web-1'));
    expect(written).toEqual([ring('vms/web-1')]);

    // A key resets the stretch.
    await press(ui.stdin, 'y');
    queue.answer('a/restart/vms/web-1', 'approve');
    void queue.confirm(restartGate('vms/api-1'));
    expect(written).toEqual([ring('vms/web-1')]);
    queue.answer('a/restart/vms/api-1', 'approve');

    // And the next long stretch rings again: the key above was the last one counted.
    now += 180_000;
    void queue.confirm(restartGate('vms/db-2'));
    expect(written).toEqual([ring('vms/web-1'), ring('vms/db-2')]);
    // It draws nothing.
    expect(ui.lastFrame()).toBe('app');
    ui.unmount();
  });
});
