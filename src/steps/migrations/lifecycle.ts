/**
 * Reading one VM's lifecycle to decide, without guessing, whether a restart already took effect
 * (after a crash between the journal's intent and result) and when a restarted VM is back.
 * The shared schemas strip `deletionTimestamp` and the VM's `stateChangeRequests`, which are
 * exactly what tells "shutting down for a restart" apart from "never asked", so this module
 * reads the few objects it needs with its own narrow schemas: one GET per object, only for the
 * one VM being restarted or settled (never a loop over the cluster).
 */
import { z } from 'zod';
import { opt } from '../../io/optional-field.js';
import { StepFailedError } from '../../errors.js';
import type { Kubectl } from '../../kube/kubectl.js';
import { OUTDATED_LABEL } from '../../kube/schemas.js';
import { parseTime } from './cluster-view.js';

const Meta = z.object({
  name: z.string(),
  namespace: opt(z.string()),
  uid: opt(z.string()),
  creationTimestamp: opt(z.string()),
  deletionTimestamp: opt(z.string()),
  labels: opt(z.record(z.string(), z.string())),
});

export const VmiLifecycleSchema = z.object({
  metadata: Meta,
  status: opt(
    z.object({
      phase: opt(z.string()),
      nodeName: opt(z.string()),
      /** When the VMI entered each phase (the cluster's own record: a restart's downtime ends at Running). */
      phaseTransitionTimestamps: opt(z.array(z.object({ phase: opt(z.string()), phaseTransitionTimestamp: opt(z.string()) }))),
    }),
  ),
});
export const VmLifecycleSchema = z.object({
  metadata: Meta,
  status: opt(z.object({ printableStatus: opt(z.string()), stateChangeRequests: opt(z.array(z.object({ action: z.string() }))) })),
});
export const VmimLifecycleSchema = z.object({ metadata: Meta, status: opt(z.object({ phase: opt(z.string()) })) });

export type VmiLifecycle = z.infer<typeof VmiLifecycleSchema>;
export type VmLifecycle = z.infer<typeof VmLifecycleSchema>;
export type VmimLifecycle = z.infer<typeof VmimLifecycleSchema>;

/** Who the VMI was before its restart: a restarted VM gets a new VMI (new uid, later creation time). */
export interface VmiIdentity {
  uid?: string;
  created?: string;
}

export const identityOf = (vmi: VmiLifecycle): VmiIdentity => ({
  ...(vmi.metadata.uid ? { uid: vmi.metadata.uid } : {}),
  ...(vmi.metadata.creationTimestamp ? { created: vmi.metadata.creationTimestamp } : {}),
});

const isOutdated = (vmi: VmiLifecycle): boolean => vmi.metadata.labels?.[OUTDATED_LABEL] !== undefined;

function isNewVmi(before: VmiIdentity | undefined, vmi: VmiLifecycle): boolean {
  if (!before) return false;
  if (before.uid && vmi.metadata.uid && before.uid !== vmi.metadata.uid) return true;
  const was = parseTime(before.created);
  const now = parseTime(vmi.metadata.creationTimestamp);
  return was !== undefined && now !== undefined && now > was;
}

/**
 * Did a restart of this VM already take effect (or start to)? Any sign counts, because the cost of
 * a wrong "no" is restarting a VM twice, and of a wrong "yes" only a VM left outdated and listed.
 */
export function restartTookEffect(before: VmiIdentity | undefined, vmi: VmiLifecycle | undefined, vm: VmLifecycle | undefined): { done: boolean; why: string } {
  if ((vm?.status?.stateChangeRequests ?? []).length > 0) return { done: true, why: 'the VM has a pending stop/start request' };
  if (!vmi) return { done: true, why: 'its VMI is gone (shut down for the restart)' };
  if (vmi.metadata.deletionTimestamp) return { done: true, why: 'its VMI is shutting down' };
  if (isNewVmi(before, vmi)) return { done: true, why: 'it runs a new VMI (new uid / creation time)' };
  if (vm?.status?.printableStatus === 'Stopping' || vm?.status?.printableStatus === 'Starting') return { done: true, why: `the VM is ${vm.status.printableStatus}` };
  if (!isOutdated(vmi)) return { done: true, why: 'it already runs on the current launcher' };
  return { done: false, why: 'the same VMI still runs on the old launcher' };
}

/** Back after a restart: a new VMI, Running, on the current launcher, not going away. */
export function backOnCurrentLauncher(before: VmiIdentity | undefined, vmi: VmiLifecycle | undefined): { back: boolean; state: string } {
  if (!vmi) return { back: false, state: 'no VMI yet (shutting down or starting)' };
  if (vmi.metadata.deletionTimestamp) return { back: false, state: 'shutting down' };
  if (before && !isNewVmi(before, vmi)) return { back: false, state: 'restart not started yet' };
  const phase = vmi.status?.phase ?? 'Pending';
  if (phase !== 'Running') return { back: false, state: `starting (${phase})` };
  if (isOutdated(vmi)) return { back: false, state: 'running, still on the old launcher' };
  return { back: true, state: `running on ${vmi.status?.nodeName ?? '?'}` };
}

/** When the VMI last entered Running, by its own phase transitions (the cluster's clock). */
export function runningSince(vmi: VmiLifecycle | undefined): string | undefined {
  const running = (vmi?.status?.phaseTransitionTimestamps ?? []).filter((t) => t.phase === 'Running' && parseTime(t.phaseTransitionTimestamp) !== undefined);
  return running.at(-1)?.phaseTransitionTimestamp;
}

const kubevirt = '/apis/kubevirt.io/v1';

export class LifecycleReader {
  constructor(
    private readonly kubectl: Kubectl,
    private readonly signal?: AbortSignal,
  ) {}

  private async one<S extends z.ZodType>(schema: S, path: string, action: string): Promise<z.output<S> | undefined> {
    const obj = await this.kubectl.getObject(path, action, this.signal);
    if (obj === undefined) return undefined;
    const parsed = schema.safeParse(obj);
    if (!parsed.success) {
      throw new StepFailedError('kube.shape', `GET ${path}: the answer does not look like the object expected (${parsed.error.issues[0]?.message ?? 'bad shape'}).`, {
        hint: 'Check the KubeVirt version on the cluster.',
      });
    }
    return parsed.data;
  }

  vmi(namespace: string, name: string): Promise<VmiLifecycle | undefined> {
    return this.one(VmiLifecycleSchema, `${kubevirt}/namespaces/${namespace}/virtualmachineinstances/${name}`, `read VMI ${namespace}/${name}`);
  }

  vm(namespace: string, name: string): Promise<VmLifecycle | undefined> {
    return this.one(VmLifecycleSchema, `${kubevirt}/namespaces/${namespace}/virtualmachines/${name}`, `read VM ${namespace}/${name}`);
  }

  migration(namespace: string, name: string): Promise<VmimLifecycle | undefined> {
    return this.one(VmimLifecycleSchema, `${kubevirt}/namespaces/${namespace}/virtualmachineinstancemigrations/${name}`, `read migration ${namespace}/${name}`);
  }
}
