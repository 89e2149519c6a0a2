import { describe, expect, it } from 'vitest';
import { withDryRun, type Effects } from '../../src/engine/effects.js';
import type { KubeMutation, MutationRequest, PaletteMutation } from '../../src/engine/mutation.js';
import type { KubeApi } from '../../src/kube/api.js';
import type { PaletteApi } from '../../src/palette/api.js';
import { VariableValues } from '../../src/palette/variable-values.js';
import { systemClock } from '../../src/engine/clock.js';

/** A port as the adapters write them: a class with private state, a read and the one door for changes. */
class Port {
  readonly sent: unknown[] = [];
  #reads = 0;
  async execute(request: unknown): Promise<void> {
    this.sent.push(request);
  }
  read(): number {
    return ++this.#reads;
  }
}

describe('the rehearsal wrapper of the effects', () => {
  it('records what any port would change, sends nothing, and leaves its reads and the other effects as they are', async () => {
    const palette = new Port();
    const kube = new Port();
    const variables = new VariableValues();
    const log = () => {};
    const effects = { palette: palette as unknown as PaletteApi, kube: kube as unknown as KubeApi, variables, clock: systemClock, confirm: async () => ({ approved: false }), log } as unknown as Effects;
    const recorded: MutationRequest[] = [];
    const rehearsal = withDryRun(effects, recorded);

    const put: PaletteMutation = { target: 'palette', method: 'PUT', path: '/v1/clusterprofiles/p1', body: {}, summary: 'write draft' };
    const restart: KubeMutation = { target: 'kube', program: 'kubectl', argv: ['replace', '--raw', '/x'], summary: 'restart' };
    await rehearsal.palette.execute(put);
    await rehearsal.kube.execute(restart);
    expect(recorded).toEqual([put, restart]);
    expect([palette.sent, kube.sent]).toEqual([[], []]);
    // Reads reach the real port (bound to it: its private fields work behind the wrapper).
    expect((rehearsal.palette as unknown as Port).read()).toBe(1);
    expect(palette.read()).toBe(2);
    expect(rehearsal.variables).toBe(variables);
    expect([rehearsal.clock, rehearsal.log]).toEqual([systemClock, log]);
  });
});
