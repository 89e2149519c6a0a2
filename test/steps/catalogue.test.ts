/**
 * The catalogue of step kinds (src/steps/index.ts): each kind is its card with its code loaded on
 * demand. The card is what the runbook is checked against and what the engine asks before a step
 * runs (its title, gate, whether it only polls, whether it re-checks on resume): it must say of the
 * code exactly what the code is.
 */
import { describe, expect, it } from 'vitest';
import { builtinStepCode, builtinSteps } from '../../src/steps/index.js';
import { lazyStepKind, type AnyStepKind } from '../../src/engine/step-kind.js';
import type { StepContext } from '../../src/engine/context.js';
import { z } from 'zod';

describe('the step kinds: cards and their code', () => {
  it('every card names its code, and says what the code says: title, description, gate, polling, parameters', async () => {
    const pairs = await builtinStepCode();
    expect(pairs).toHaveLength(14);
    for (const { card, code } of pairs) {
      expect({ kind: code.kind, title: code.title, description: code.description, gate: code.gate, pollsOnly: code.pollsOnly }).toEqual({
        kind: card.kind,
        title: card.title,
        description: card.description,
        gate: card.gate,
        pollsOnly: card.pollsOnly,
      });
      // The very schema the runbook was checked against parses the step's parameters when it runs.
      expect(code.params).toBe(card.params);
      expect({ kind: card.kind, rechecks: Boolean(card.rechecks) }).toEqual({ kind: card.kind, rechecks: typeof code.precondition === 'function' });
    }
  });

  it('the registry answers from the cards: kinds, gates, and a precondition only where the code has one', () => {
    const registry = builtinSteps();
    expect(registry.names()).toEqual(['preflight', 'snapshot', 'plan', 'customize', 'draft', 'publish', 'apply', 'repave', 'reconcile', 'migrations', 'diagnose', 'recover', 'verify', 'report']);
    expect(registry.all().flatMap((k) => (k.gate ? [k.gate] : []))).toEqual(['draft', 'publish', 'apply', 'repave', 'cancel-migrations']);
    expect(registry.all().filter((k) => k.precondition).map((k) => k.kind)).toEqual(['preflight', 'snapshot', 'draft']);
    expect(registry.all().filter((k) => k.pollsOnly).map((k) => k.kind)).toEqual(['reconcile', 'migrations']);
  });
});

describe('a kind whose code loads on demand', () => {
  const card = { kind: 'probe', title: 'Probe', description: 'a test kind', params: z.strictObject({}), rechecks: true };
  const ctx = {} as StepContext<unknown>;

  it('loads its code once, at the first run, and runs it; re-checks through it', async () => {
    let loads = 0;
    const code: AnyStepKind = { ...card, run: async () => ({ status: 'succeeded', summary: 'ran' }), precondition: async () => ['drifted'] };
    const kind = lazyStepKind(card, async () => {
      loads++;
      return code;
    });
    expect(loads).toBe(0);
    expect(await kind.run(ctx)).toEqual({ status: 'succeeded', summary: 'ran' });
    expect(await kind.run(ctx)).toEqual({ status: 'succeeded', summary: 'ran' });
    expect(await kind.precondition!(ctx, {})).toEqual(['drifted']);
    expect(loads).toBe(1);
  });

  it('a load that failed is tried again at the next run, and the wrong code is refused by name', async () => {
    let attempt = 0;
    const flaky = lazyStepKind(card, async () => {
      attempt++;
      if (attempt === 1) throw new Error('chunk missing');
      return { ...card, run: async () => ({ status: 'succeeded' }) };
    });
    await expect(flaky.run(ctx)).rejects.toThrow('chunk missing');
    expect(await flaky.run(ctx)).toEqual({ status: 'succeeded' });
    const wrong = lazyStepKind(card, async () => ({ ...card, kind: 'other', run: async () => ({ status: 'succeeded' }) }));
    await expect(wrong.run(ctx)).rejects.toThrow('the code loaded for step kind probe is kind other');
  });

  it('has no precondition when its card says the code re-checks nothing', () => {
    const { rechecks: _unused, ...plain } = card;
    expect(lazyStepKind(plain, async () => ({ ...plain, run: async () => ({ status: 'succeeded' }) })).precondition).toBeUndefined();
  });
});
