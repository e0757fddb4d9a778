import { call } from '@/lib/api';
import type { TItem } from '@air/shared/schemas/item';
import type { TScaffoldKind } from './scaffold-kinds';

export const itemsQuery = (kind: TScaffoldKind) => ['items', kind.kind] as const;

export async function fetchItems(kind: TScaffoldKind): Promise<TItem[]> {
  const res = await call(`GET /api/${kind.kind}`);
  return Array.isArray(res.data) ? res.data : [];
}

/** The detail call may answer a row or a list of rows: the page reads the first one (spec section 2). */
export async function fetchItem(kind: TScaffoldKind, id: string): Promise<TItem | null> {
  const res = await call(`GET /api/${kind.kind}/:id`, { params: { id } });
  const data = res.data;
  return (Array.isArray(data) ? data[0] : data) ?? null;
}

export function deleteItems(kind: TScaffoldKind, ids: string[]) {
  return kind.deleteInPath
    ? call(`DELETE /api/${kind.kind}/:ids`, { params: { ids } })
    : call(`DELETE /api/${kind.kind}`, { body: ids });
}
