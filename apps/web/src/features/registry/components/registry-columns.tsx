import type { TFunction } from 'i18next';
import type { TColumn } from '@/components/table/types';
import type { TAiEndpoint } from '../endpoint-types';
import { RouteTypeBadge } from './endpoint-badges';

/** A row's identity in both registry tabs: its route name (unique across AIR), in monospace. */
export function routeNameColumn<T extends TAiEndpoint>(t: TFunction<'registry'>): TColumn<T> {
  return {
    key: 'route_name',
    header: t('column.routeName'),
    sortable: true,
    cell: (r) => <code className="font-mono text-sm font-medium break-all">{r.route_name}</code>,
  };
}

/** The columns both registry tabs open with: route name (the identity), name, route type. */
export function endpointColumns<T extends TAiEndpoint>(t: TFunction<'registry'>): TColumn<T>[] {
  return [
    routeNameColumn<T>(t),
    {
      key: 'name',
      header: t('column.name'),
      sortable: true,
      // The name says something only when it is not the route name (its default).
      cell: (r) => (r.name === r.route_name ? <span className="text-muted-foreground">—</span> : r.name),
    },
    {
      key: 'route_type',
      header: t('column.routeType'),
      sortable: true,
      cell: (r) => <RouteTypeBadge type={r.route_type} />,
    },
  ];
}
