import { describe, expect, it } from 'vitest';
import { wayBackOf } from '../../src/report/way-back.js';
import type { SessionState } from '../../src/engine/state.js';
import type { PlanContract } from '../../src/steps/contracts.js';
import { stepsBack, type AppliedVersion } from '../../src/domain/flavor/way-back.js';
import { wayBackHint } from '../../src/steps/hop/way-back-hint.js';
import type { StepContext } from '../../src/engine/context.js';

const state = { mutations: {} } as unknown as SessionState;
const plan = (flavor: 'palette' | 'spec'): PlanContract =>
  ({
    flavor,
    hops: [],
    wayBack: [
      { role: 'infra', name: 'vmo-infra', uid: 'i-140', version: '1.4.0', how: 'from the plan (infra)' },
      { role: 'addon', name: 'vmo-core', uid: 'a-140', version: '1.4.0', how: 'from the plan (addon)' },
    ],
  }) as unknown as PlanContract;

const hop1: AppliedVersion[] = [
  { role: 'infra', name: 'vmo-infra', from: { uid: 'i-140', version: '1.4.0' }, to: { uid: 'i-150', version: '1.5.0' } },
  { role: 'addon', name: 'vmo-core', from: { uid: 'a-140', version: '1.4.0' }, to: { uid: 'a-150', version: '1.5.0' } },
];
const hop2: AppliedVersion[] = [{ role: 'addon', name: 'vmo-core', from: { uid: 'a-150', version: '1.5.0' }, to: { uid: 'a-160', version: '1.6.0' } }];
const inPlace: AppliedVersion[] = [{ role: 'addon', name: 'vmo-core', from: { uid: 'a-140', version: '1.4.0' }, to: { uid: 'a-140', version: '1.4.0' } }];

describe('the way back, one hop at a time', () => {
  it.each([
    ['two hops, addon', [hop1, hop2], 'addon', ['a-160→a-150', 'a-150→a-140']],
    ['two hops, infra moved only in hop 1', [hop1, hop2], 'infra', ['i-150→i-140']],
    ['nothing applied', [], 'addon', []],
    ['edited in place: no version to step back to', [inPlace], 'addon', []],
  ] as const)('%s', (_name, applied, role, expected) => {
    expect(stepsBack(applied as unknown as AppliedVersion[][], role).map((r) => `${r.to.uid}→${r.from.uid}`)).toEqual(expected);
  });

  it('the report names every step with real uids, newest first, and the pack caveat; no placeholder', () => {
    const [infra, addon] = wayBackOf(state, plan('palette'), undefined, [hop1, hop2], 'c1');
    expect(addon!.how).toMatch(/^One hop at a time, newest first: 1\. attach vmo-core 1\.5\.0 \(uid a-150\) in place of 1\.6\.0 \(uid a-160\) by PATCH \/v1\/spectroclusters\/c1\/profiles\?resolveNotification=true with \{"profiles":\[\{"uid":"a-150","replaceWithProfile":"a-160"\}\]\}, then wait until every pack is Ready; 2\. attach vmo-core 1\.4\.0 \(uid a-140\) in place of 1\.5\.0 \(uid a-150\)/);
    expect(addon!.how).toContain('Palette advises against downgrading packs');
    expect(infra!.how).toMatch(/^One hop at a time, newest first: 1\. attach vmo-infra 1\.4\.0 \(uid i-140\) in place of 1\.5\.0 \(uid i-150\)/);
    for (const w of [infra!, addon!]) expect(w.how).not.toContain('<');
  });

  it("the spec's service and a session that applied nothing keep the plan's words", () => {
    expect(wayBackOf(state, plan('spec'), undefined, [hop1], 'c1').map((w) => w.how)).toEqual(['from the plan (infra)', 'from the plan (addon)']);
    expect(wayBackOf(state, plan('palette'), undefined, [], 'c1').map((w) => w.how)).toEqual(['from the plan (infra)', 'from the plan (addon)']);
  });

  it("a stop's hint counts the apply being sent now once, and steps back from it first", () => {
    const ctx = {
      site: { cluster: { uid: 'c1' } },
      state: () => ({ entries: [{ id: 'plan', kind: 'plan', status: 'succeeded', output: plan('palette') }] }),
      outputsOfKind: (kind: string) => (kind === 'apply' ? [{ replaced: hop1 }] : []),
    } as unknown as StepContext<unknown>;
    const hint = wayBackHint(ctx, hop2)!;
    expect(hint).toMatch(/^The way back, one hop at a time: vmo-infra: attach vmo-infra 1\.4\.0 \(uid i-140\) in place of 1\.5\.0 \(uid i-150\)/);
    expect(hint).toContain('vmo-core: attach vmo-core 1.5.0 (uid a-150) in place of 1.6.0 (uid a-160) by');
    expect(hint).toContain(', then attach vmo-core 1.4.0 (uid a-140) in place of 1.5.0 (uid a-150) by');
    expect(wayBackHint(ctx, hop1)!.match(/in place of/g)).toHaveLength(2);
  });
});
