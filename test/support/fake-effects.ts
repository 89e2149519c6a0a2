/**
 * Scripted effects in the spirit of lazygit's fake command runner: every mutation is recorded, reads
 * fail loudly (test steps never read), and `applied` lets settle callbacks see what "happened".
 */
import { systemClock } from '../../src/engine/clock.js';
import type { Effects } from '../../src/engine/effects.js';
import type { ConfirmFn } from '../../src/engine/gate.js';
import type { KubeMutation, MutationRequest, PaletteMutation } from '../../src/engine/mutation.js';
import type { KubeApi } from '../../src/kube/api.js';
import type { PaletteApi } from '../../src/palette/api.js';

export interface FakeWorld {
  sent: MutationRequest[];
  applied: Set<string>;
  /** Throw on the next execute of this path/argv (simulates an ambiguous failure). */
  failNext?: string;
}

export function fakeWorld(): FakeWorld {
  return { sent: [], applied: new Set() };
}

export function fakeEffects(world: FakeWorld, confirm: ConfirmFn): Effects {
  // Reads are not scripted: a test step that read would fail loudly on the missing method.
  const palette = {
    applied: world.applied,
    async execute(req: PaletteMutation) {
      if (world.failNext === req.path) {
        delete world.failNext;
        world.applied.add(req.path);
        throw new Error('connection reset after the request was sent');
      }
      world.sent.push(req);
      world.applied.add(req.path);
      // The API's answer (a real clone answers `{uid}`): what the step's onAnswer receives.
      return { answered: req.path };
    },
  } as unknown as PaletteApi & { applied: Set<string> };
  const kube = {
    async execute(req: KubeMutation) {
      world.sent.push(req);
      world.applied.add(req.argv.join(' '));
    },
  } as unknown as KubeApi;
  return { palette, kube, clock: systemClock, confirm, log: () => undefined };
}
