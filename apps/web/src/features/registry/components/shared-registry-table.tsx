import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@/components/table/data-table';
import type { TColumn } from '@/components/table/types';
import { htmlToText, type TAiEndpoint } from '../endpoint-types';
import { endpointColumns } from './registry-columns';
import { REGISTRY_PAGE_SIZE } from './my-registry-table';

interface TSharedRow extends TAiEndpoint {
  org: string;
  description: string;
}

/** The shared provider registry tab: every active, shared, public endpoint of every account. */
export function SharedRegistryTable({
  data,
  loading,
}: {
  data: TAiEndpoint[] | undefined;
  loading: boolean;
}) {
  const { t } = useTranslation('registry');
  const navigate = useNavigate();
  const rows = useMemo<TSharedRow[] | undefined>(
    () =>
      data?.map((e) => ({
        ...e,
        org: e.account_orgDisplayName ?? '',
        description: htmlToText(e.config?.description),
      })),
    [data],
  );

  const columns: TColumn<TSharedRow>[] = [
    ...endpointColumns<TSharedRow>(t),
    { key: 'org', header: t('column.org'), sortable: true },
    {
      key: 'description',
      header: t('column.description'),
      cell: (r) => (
        <span className="block max-w-72 truncate" title={r.description}>
          {r.description}
        </span>
      ),
    },
  ];

  return (
    <DataTable<TSharedRow>
      label={t('tab.shared')}
      data={rows}
      loading={loading}
      columns={columns}
      pageSize={REGISTRY_PAGE_SIZE}
      searchKeys={['name', 'route_name', 'org', 'description']}
      emptyMessage={t('empty.shared')}
      onRowClick={(row) => void navigate(`/aiendpoints/${row.id}`)}
      rowLabel={(row) => row.route_name}
      actions={[{ label: t('action.view'), onSelect: (row) => void navigate(`/aiendpoints/${row.id}`) }]}
    />
  );
}
