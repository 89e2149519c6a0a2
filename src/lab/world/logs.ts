/**
 * Pod logs: a bounded history per pod container, written by the world as things happen, in each
 * component's real format (KubeVirt's JSON lines, klog, logfmt). A pod nobody wrote to answers with
 * a couple of start-up lines, generated on demand, so 20,000 quiet pods cost nothing.
 */
import type { KubeObject } from '../kube/types.js';

const maxLinesPerContainer = 400;

export type LogLevel = 'info' | 'warning' | 'error' | 'fatal';

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** KubeVirt components log one JSON object per line. */
export function kubevirtLine(at: number, component: string, level: LogLevel, msg: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ component, level, msg, ...extra, timestamp: iso(at) });
}

/** klog format: `I1122 04:30:01.123456       1 file.go:42] message`. */
export function klogLine(at: number, level: LogLevel, source: string, msg: string): string {
  const d = new Date(at);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const sev = level === 'fatal' ? 'F' : level === 'error' ? 'E' : level === 'warning' ? 'W' : 'I';
  return `${sev}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000       1 ${source}] ${msg}`;
}

/** logfmt, as Cilium and Portworx write it. */
export function logfmtLine(at: number, level: LogLevel, msg: string, fields: Record<string, string> = {}): string {
  const quote = (v: string) => (/[\s"=]/.test(v) ? JSON.stringify(v) : v);
  const rest = Object.entries(fields).map(([k, v]) => ` ${k}=${quote(v)}`).join('');
  return `time="${new Date(at).toISOString()}" level=${level} msg=${JSON.stringify(msg)}${rest}`;
}

export class PodLogs {
  private readonly lines = new Map<string, string[]>();

  constructor(private readonly getPod: (namespace: string, name: string) => KubeObject | undefined) {}

  append(namespace: string, pod: string, text: string | string[], container?: string): void {
    const key = this.key(namespace, pod, container);
    let list = this.lines.get(key);
    if (!list) {
      const p = this.getPod(namespace, pod);
      list = p ? startupLines(p, container) : [];
      this.lines.set(key, list);
    }
    for (const line of Array.isArray(text) ? text : [text]) list.push(line);
    if (list.length > maxLinesPerContainer) list.splice(0, list.length - maxLinesPerContainer);
  }

  /** All lines of a container (the server applies tailLines), or the start-up lines if none were written. */
  read(namespace: string, pod: string, container?: string): string | undefined {
    const p = this.getPod(namespace, pod);
    if (!p) return undefined;
    const list = this.lines.get(this.key(namespace, pod, container ?? firstContainer(p))) ?? startupLines(p, container);
    return list.length === 0 ? '' : `${list.join('\n')}\n`;
  }

  /** A pod went away: its history goes with it. */
  forget(namespace: string, pod: string): void {
    const prefix = `${namespace}/${pod}/`;
    for (const key of [...this.lines.keys()]) if (key.startsWith(prefix)) this.lines.delete(key);
  }

  private key(namespace: string, pod: string, container: string | undefined): string {
    if (container === undefined) {
      const p = this.getPod(namespace, pod);
      container = p ? firstContainer(p) : '';
    }
    return `${namespace}/${pod}/${container}`;
  }
}

function firstContainer(pod: KubeObject): string {
  const containers = (pod.spec as { containers?: Array<{ name: string }> } | undefined)?.containers ?? [];
  return containers[0]?.name ?? '';
}

function startedAt(pod: KubeObject): number {
  const ts = pod.metadata.creationTimestamp;
  return ts ? Date.parse(ts) + 2000 : Date.now();
}

/** What a component prints when it starts, by the pod's labels. */
function startupLines(pod: KubeObject, container?: string): string[] {
  const at = startedAt(pod);
  const labels = pod.metadata.labels ?? {};
  const image = ((pod.spec as { containers?: Array<{ name: string; image: string }> } | undefined)?.containers ?? []).find((c) => container === undefined || c.name === container)?.image ?? '';
  const version = image.split(':').pop() ?? '';
  const kubevirt = labels['kubevirt.io'];
  if (kubevirt === 'virt-launcher') {
    return [
      kubevirtLine(at, 'virt-launcher', 'info', 'Collected all requested hook sidecar sockets', { pos: 'manager.go:86' }),
      kubevirtLine(at, 'virt-launcher', 'info', `virt-launcher ${version} started`, { pos: 'virt-launcher.go:403' }),
      kubevirtLine(at + 3000, 'virt-launcher', 'info', 'Domain started.', { kind: '', name: labels['vm.kubevirt.io/name'] ?? '', namespace: pod.metadata.namespace, pos: 'manager.go:1109' }),
    ];
  }
  if (kubevirt) {
    return [
      kubevirtLine(at, kubevirt, 'info', `${kubevirt} ${version} started`, { pos: 'application.go:230' }),
      kubevirtLine(at + 1000, kubevirt, 'info', 'STARTING informer', { pos: 'virtinformers.go:335' }),
    ];
  }
  if (pod.metadata.namespace === 'kube-system' && labels['k8s-app'] === 'cilium') {
    return [logfmtLine(at, 'info', `Cilium ${version}`, { subsys: 'daemon' }), logfmtLine(at + 2000, 'info', 'Daemon initialization completed', { subsys: 'daemon' })];
  }
  return [klogLine(at, 'info', 'main.go:58', `Starting ${pod.metadata.name} (${image})`), klogLine(at + 1500, 'info', 'main.go:112', 'Ready')];
}
