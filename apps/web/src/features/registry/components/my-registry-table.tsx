import * as React from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useDialog } from '@/app/dialog-provider';
import { DataTable } from '@/components/table/data-table';
import type { TColumn } from '@/components/table/types';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useErrorHandler } from '@/lib/error-handler';
import { CALLABLE_ROUTES_QUERY } from '@/features/apikeys/api-keys-api';
import { refreshDashboard } from '@/features/dashboard/dashboard-data';
import type { TAiEndpoint } from '../endpoint-types';
import { deleteEndpoints, MY_ENDPOINTS_QUERY, SHARED_ENDPOINTS_QUERY } from '../registry-api';
import { ActiveBadge, VisibilityBadge } from './endpoint-badges';
import { EndpointCreated } from './endpoint-created';
import { endpointColumns } from './registry-columns';

/** The new endpoint's id in a create dialog's answer (`{ data: { id } }`), if any. */
function createdId(result: unknown): string | null {
  if (typeof result !== 'object' || result === null || !('data' in result)) return null;
  const { data } = result;
  if (typeof data !== 'object' || data === null || !('id' in data)) return null;
  return typeof data.id === 'string' ? data.id : null;
}

/** Spec section 9. */
export const REGISTRY_PAGE_SIZE = 12;

/** The "My Registry" tab: the account's endpoints with view, edit, delete, bulk delete and New. */
export function MyRegistryTable({ data, loading }: { data: TAiEndpoint[] | undefined; loading: boolean }) {
  const { t } = useTranslation('registry');
  const navigate = useNavigate();
  const dialog = useDialog();
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  // The endpoint just made: its ready-to-run call shows above the list until dismissed.
  const [justMade, setJustMade] = React.useState<string | null>(null);
  const made = justMade ? data?.find((row) => row.id === justMade) : undefined;

  // An endpoint also shows on the dashboard (checklist, health, snippets) and in the key form's routes.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: MY_ENDPOINTS_QUERY }),
      queryClient.invalidateQueries({ queryKey: SHARED_ENDPOINTS_QUERY }),
      queryClient.invalidateQueries({ queryKey: CALLABLE_ROUTES_QUERY }),
      refreshDashboard(queryClient),
    ]);

  // The field definitions carry the request schemas (and zod with them): load on first use.
  const formFields = () => import('../endpoint-form-fields');

  async function openCreate() {
    const { createEndpointForm } = await formFields();
    dialog.open({
      title: t('create.title'),
      description: t('create.description'),
      buttonText: t('create.button'),
      call: 'POST /api/aiendpoint',
      ...createEndpointForm(t),
      callback: (result) => {
        if (!result) return;
        setJustMade(createdId(result));
        void refresh();
      },
    });
  }

  async function openEdit(row: TAiEndpoint) {
    const { editEndpointForm } = await formFields();
    dialog.open({
      title: t('edit.title'),
      buttonText: t('edit.button'),
      call: 'PATCH /api/aiendpoint/:id',
      params: { id: row.id },
      ...editEndpointForm(t, row),
      callback: (result) => {
        if (result) void refresh();
      },
    });
  }

  function confirmDelete(rows: TAiEndpoint[]) {
    dialog.open({
      title: t('delete.title'),
      description: t('delete.description', { count: rows.length }),
      buttonText: t('delete.button'),
      callback: (ok) => {
        if (ok !== true) return;
        deleteEndpoints(rows.map((r) => r.id))
          .then(() => {
            toast({ variant: 'success', title: t('delete.done', { count: rows.length }) });
            return refresh();
          })
          .catch(handleError);
      },
    });
  }

  // Mine puts state and visibility after the identity and the name.
  const [routeColumn, nameColumn, typeColumn] = endpointColumns<TAiEndpoint>(t);
  const columns: TColumn<TAiEndpoint>[] = [
    routeColumn!,
    nameColumn!,
    {
      key: 'isActive',
      header: t('column.isActive'),
      sortable: true,
      cell: (r) => <ActiveBadge active={r.isActive} />,
    },
    {
      key: 'isPrivate',
      header: t('column.isPrivate'),
      sortable: true,
      cell: (r) => <VisibilityBadge isPrivate={r.isPrivate} />,
    },
    typeColumn!,
    {
      key: 'route_endpoint',
      header: t('column.routeEndpoint'),
      cell: (r) => (
        <span className="block max-w-64 truncate text-xs" title={r.route_endpoint}>
          {r.route_endpoint}
        </span>
      ),
    },
  ];

  const newButton = (
    <Button onClick={() => void openCreate()}>
      <Plus aria-hidden="true" />
      {t('new')}
    </Button>
  );

  const createdCard = made ? (
    <EndpointCreated routeName={made.route_name} protocol={made.protocol} onClose={() => setJustMade(null)} />
  ) : null;
  if (data && data.length === 0) {
    return <BlankSlate title={t('empty.title')} text={t('empty.text')} action={newButton} />;
  }
  return (
    <>
      {createdCard}
      <DataTable<TAiEndpoint>
        label={t('tab.mine')}
        data={data}
        loading={loading}
        columns={columns}
        pageSize={REGISTRY_PAGE_SIZE}
        searchKeys={['name', 'route_name', 'route_endpoint', 'route_type']}
        selectable
        toolbar={newButton}
        onRowClick={(row) => void navigate(`/aiendpoints/${row.id}`)}
        rowLabel={(row) => row.route_name}
        actions={[
          { label: t('action.view'), onSelect: (row) => void navigate(`/aiendpoints/${row.id}`) },
          { label: t('action.edit'), onSelect: (row) => void openEdit(row) },
          { label: t('action.delete'), destructive: true, onSelect: (row) => confirmDelete([row]) },
        ]}
        bulkActions={[{ label: t('action.delete'), destructive: true, onSelect: confirmDelete }]}
      />
    </>
  );
}
