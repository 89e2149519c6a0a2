/**
 * `meta.k8s.io/v1` Tables, what `kubectl get` asks for when it prints for humans. kubectl prints the
 * cells as they come and takes each row's `object` for what it adds itself: the NAMESPACE column of
 * `-A`, `--show-labels`, `-L`. So rows carry the object's metadata by default (`includeObject`
 * Metadata), the whole object with `Object` (kubectl's `--sort-by`), nothing with `None`.
 */
import { KubeStatusException, badRequest } from './status.js';
import { columnsFor, type ColumnDefinition } from './table-columns.js';
import { jsonWithArray, listMetadata, type ListMeta } from './list-body.js';
import type { ServedType } from './kinds.js';
import type { KubeObject } from './types.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(raw: string | null): IncludeObject {
  if (raw === null || raw === '') return 'Metadata';
  if (raw === 'None' || raw === 'Metadata' || raw === 'Object') return raw;
  throw new KubeStatusException(badRequest(`includeObject: Unsupported value: "${raw}": supported values: "Metadata", "None", "Object"`));
}

export interface TableRowSource {
  obj: KubeObject;
  /** The object's JSON, for `includeObject=Object`. */
  json(): string;
}

export interface TableRequest {
  type: ServedType;
  rows: readonly TableRowSource[];
  includeObject: IncludeObject;
  meta: ListMeta;
  now: number;
  /** `meta.k8s.io/v1` unless the client accepts only v1beta1. */
  apiVersion: string;
}

function rowObject(row: TableRowSource, includeObject: IncludeObject): string | undefined {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return row.json();
  return JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: row.obj.metadata });
}

/** The Table as chunks of JSON (see list-body). */
export function tableBody(req: TableRequest): string[] {
  const columns = columnsFor(req.type);
  const definitions: ColumnDefinition[] = columns.map(({ name, type, format, description, priority }) => ({ name, type, format, description, priority }));
  const rows = req.rows.map((row) => {
    const cells = JSON.stringify(columns.map((c) => c.cell(row.obj, req.now) ?? null));
    const object = rowObject(row, req.includeObject);
    return object === undefined ? `{"cells":${cells}}` : `{"cells":${cells},"object":${object}}`;
  });
  return jsonWithArray({ kind: 'Table', apiVersion: req.apiVersion, metadata: listMetadata(req.meta), columnDefinitions: definitions }, 'rows', rows);
}
