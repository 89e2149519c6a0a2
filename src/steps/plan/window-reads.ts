/**
 * What the plan reads for the window prediction (domain/window/): from the cluster, the
 * MigrationPolicies, the namespaces' labels they select by, the finished migrations to learn the
 * bandwidth from, the nodes and KubeVirt's own pods; from the cluster's Prometheus, when the params
 * name one, each VMI's dirty rate (one instant query; an unreachable or failing endpoint gives no
 * rates and a note, never a failed plan).
 */
import { gotOnDemand } from '../../net/got-on-demand.js';
import type { ClusterReader } from '../../kube/reader.js';
import { toolVersion } from '../../version.js';
import { dirtyRateMetric, dirtyRatesOf } from '../../domain/window/dirty-rate.js';
import type { WindowReads } from '../../domain/window/window.js';

export async function readWindow(reader: ClusterReader, kubevirtNamespace: string): Promise<WindowReads> {
  const [policies, migrations, nodes, kubevirtPods] = await Promise.all([reader.migrationPolicies(), reader.migrations(), reader.nodes(), reader.pods({ namespace: kubevirtNamespace })]);
  // Namespaces only matter to select policies by: no read when there are none.
  const namespaces = policies.items.length ? await reader.namespaces() : [];
  return { policies: policies.items, ...(policies.notInstalled ? { policiesNote: policies.notInstalled } : {}), namespaces, migrations, nodes, kubevirtPods };
}

export async function readDirtyRates(prometheusUrl: string, timeoutMs: number, signal: AbortSignal): Promise<{ rates: Map<string, number>; note?: string }> {
  const url = new URL('api/v1/query', prometheusUrl.endsWith('/') ? prometheusUrl : `${prometheusUrl}/`);
  url.searchParams.set('query', dirtyRateMetric);
  const where = `${url.origin}${url.pathname}`;
  try {
    const { default: got } = await gotOnDemand();
    const response = await got(url, { headers: { 'user-agent': `upgrade-pilot/${toolVersion}` }, timeout: { request: timeoutMs }, retry: { limit: 1 }, followRedirect: false, throwHttpErrors: false, signal });
    if (response.statusCode !== 200) return { rates: new Map(), note: `The dirty rates could not be read: ${where} answered ${response.statusCode}; migrations are judged by memory and timeouts only.` };
    const rates = dirtyRatesOf(JSON.parse(response.body) as unknown);
    if (typeof rates === 'string') return { rates: new Map(), note: `The dirty rates could not be read from ${where}: ${rates}; migrations are judged by memory and timeouts only.` };
    return { rates, ...(rates.size === 0 ? { note: `${where} has no ${dirtyRateMetric} (KubeVirt older than 1.4, or not scraped): migrations are judged by memory and timeouts only.` } : {}) };
  } catch (err) {
    if (signal.aborted) throw err;
    return { rates: new Map(), note: `The dirty rates could not be read from ${where} (${(err as { code?: string }).code ?? (err as Error).message}); migrations are judged by memory and timeouts only.` };
  }
}
