/**
 * Big JSON documents (lists, tables) assembled from already serialized items, in chunks the server
 * writes one by one: a 20,000-pod list never becomes one giant string or one JSON.stringify call.
 */

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

const ITEMS_PER_CHUNK = 500;

/** `{...head, "<arrayKey>":[items...]}` as chunks; `head` is serialized as-is before the array. */
export function jsonWithArray(head: Record<string, unknown>, arrayKey: string, items: readonly string[]): string[] {
  const opening = JSON.stringify(head);
  const prefix = `${opening.slice(0, -1)}${opening.length > 2 ? ',' : ''}${JSON.stringify(arrayKey)}:[`;
  const chunks = [prefix];
  for (let i = 0; i < items.length; i += ITEMS_PER_CHUNK) {
    chunks.push((i > 0 ? ',' : '') + items.slice(i, i + ITEMS_PER_CHUNK).join(','));
  }
  chunks.push(']}');
  return chunks;
}

export function listMetadata(meta: ListMeta): Record<string, unknown> {
  return {
    resourceVersion: meta.resourceVersion,
    ...(meta.continue ? { continue: meta.continue } : {}),
    ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
  };
}

export function listBody(kind: string, apiVersion: string, meta: ListMeta, items: readonly string[]): string[] {
  return jsonWithArray({ kind, apiVersion, metadata: listMetadata(meta) }, 'items', items);
}
