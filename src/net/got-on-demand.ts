/**
 * got, loaded when the first request is about to leave rather than when the command starts. Its
 * modules are a quarter of what a read-only command loads (got, its cache and HTTP/2 layers, about
 * 280 kB); loaded on demand, that work overlaps the start of kubectl's proxy instead of delaying it.
 */
type GotModule = typeof import('got');

let loading: Promise<GotModule> | undefined;

export function gotOnDemand(): Promise<GotModule> {
  return (loading ??= import('got').catch((err: unknown) => {
    loading = undefined;
    throw err;
  }));
}
