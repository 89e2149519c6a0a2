/**
 * `GET .../pods/{name}/log`: the text comes from the world's `logs` hook; the server applies
 * `tailLines` and `limitBytes` and checks the container the way the kubelet path does.
 */
import { statusReply } from './http.js';
import type { Handled, HandlerDeps, KubeRequest } from './request.js';
import { KubeStatusException, badRequest, notFound } from './status.js';
import type { KubeObject } from './types.js';

function containerNames(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const names: string[] = [];
  for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    for (const c of list) if (typeof c === 'object' && c !== null && typeof (c as { name?: unknown }).name === 'string') names.push((c as { name: string }).name);
  }
  return names;
}

function nonNegativeInt(query: URLSearchParams, key: string): number | undefined {
  const raw = query.get(key);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new KubeStatusException(badRequest(`${key}: Invalid value: "${raw}": must be a non-negative integer`));
  return Number(raw);
}

/** The last `n` lines; a trailing newline ends the last line rather than starting an empty one. */
export function tailLines(text: string, n: number): string {
  if (text === '') return text;
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  if (n >= lines.length) return text;
  if (n === 0) return '';
  return lines.slice(-n).join('\n') + (endsWithNewline ? '\n' : '');
}

export function handleLogs(req: KubeRequest, deps: HandlerDeps): Handled {
  const { type, namespace, name } = req.target;
  const tail = nonNegativeInt(req.query, 'tailLines');
  const limitBytes = nonNegativeInt(req.query, 'limitBytes');
  const pod = deps.store.get(type.resource, namespace, name!);
  if (!pod) return { reply: statusReply(notFound(type, name!)) };

  const names = containerNames(pod);
  let container = req.query.get('container') ?? undefined;
  if (container === undefined || container === '') {
    const spec = (pod.spec ?? {}) as { containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }> };
    const main = (spec.containers ?? []).map((c) => c.name);
    if (main.length > 1) {
      // The apiserver's words (k8s.io/kubernetes pkg/registry/core/pod/strategy.go LogLocation).
      const inits = (spec.initContainers ?? []).map((c) => c.name);
      throw new KubeStatusException(badRequest(`a container name must be specified for pod ${name!}, choose one of: [${main.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`));
    }
    container = names[0];
  } else if (!names.includes(container)) {
    throw new KubeStatusException(badRequest(`container ${container} is not valid for pod ${name!}`));
  }

  let text = deps.hooks.logs?.(namespace!, name!, container === undefined ? {} : { container }) ?? '';
  if (tail !== undefined) text = tailLines(text, tail);
  if (limitBytes !== undefined) text = Buffer.from(text).subarray(0, limitBytes).toString('utf8');
  return { reply: { status: 200, contentType: 'text/plain', body: text } };
}
