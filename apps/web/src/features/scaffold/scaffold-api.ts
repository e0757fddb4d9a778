import { api } from '@/lib/api';
import type { TScaffoldItem, TScaffoldKind } from './scaffold-kinds';

export const itemsQuery = (kind: TScaffoldKind) => ['items', kind.kind] as const;

export async function fetchItems(kind: TScaffoldKind): Promise<TScaffoldItem[]> {
  const res = await api.get<TScaffoldItem[]>(`/api/${kind.kind}`);
  return Array.isArray(res.data) ? res.data : [];
}

/** The detail call may answer a row or a list of rows: the page reads the first one (spec section 2). */
export async function fetchItem(kind: TScaffoldKind, id: string): Promise<TScaffoldItem | null> {
  const res = await api.get<TScaffoldItem | TScaffoldItem[]>(`/api/${kind.kind}/${encodeURIComponent(id)}`);
  const data = res.data;
  return (Array.isArray(data) ? data[0] : data) ?? null;
}

export function deleteItems(kind: TScaffoldKind, ids: string[]) {
  return kind.deleteInPath
    ? api.delete(`/api/${kind.kind}/${ids.map(encodeURIComponent).join(',')}`)
    : api.delete(`/api/${kind.kind}`, ids);
}
