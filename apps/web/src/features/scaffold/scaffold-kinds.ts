import type { TItemKind } from '@air/shared/schemas/item';

/** One name-only collection: its API and where its list and detail pages live (decision 003). */
/** `?create=1` on a list page opens its create dialog (blank slates elsewhere link to it). */
export const CREATE_PARAM = 'create';

export interface TScaffoldKind {
  kind: TItemKind;
  /** The list page's path; the detail page is `${listPath}/{id}`. */
  listPath: string;
  /** airoute deletes through `/api/airoute/{ids}`; the others send an array of ids to `/api/{x}`. */
  deleteInPath: boolean;
}

export const SCAFFOLD_KINDS: Record<TItemKind, TScaffoldKind> = {
  newitem: { kind: 'newitem', listPath: '/newitems', deleteInPath: false },
  newitemtwo: { kind: 'newitemtwo', listPath: '/newitemtwos', deleteInPath: false },
  endpointtest: { kind: 'endpointtest', listPath: '/endpointtests', deleteInPath: false },
  airoute: { kind: 'airoute', listPath: '/airoutes', deleteInPath: true },
  air: { kind: 'air', listPath: '/airs', deleteInPath: false },
  search: { kind: 'search', listPath: '/search', deleteInPath: false },
};
