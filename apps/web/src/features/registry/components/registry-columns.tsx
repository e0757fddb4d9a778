import type { TFunction } from 'i18next';
import type { TColumn } from '@/components/table/types';
import type { TAiEndpoint } from '../endpoint-types';
import { RouteTypeBadge } from './endpoint-badges';

/** The columns both registry tabs open with: the endpoint's name, route type and route name. */
export function endpointColumns<T extends TAiEndpoint>(t: TFunction<'registry'>): TColumn<T>[] {
  return [
    { key: 'name', header: t('column.name'), sortable: true },
    {
      key: 'route_type',
      header: t('column.routeType'),
      sortable: true,
      cell: (r) => <RouteTypeBadge type={r.route_type} />,
    },
    {
      key: 'route_name',
      header: t('column.routeName'),
      sortable: true,
      cell: (r) => <code className="font-mono text-xs">{r.route_name}</code>,
    },
  ];
}
