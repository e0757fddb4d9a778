import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { DataTable } from '@/components/table/data-table';
import type { TColumn } from '@/components/table/types';
import { Badge } from '@/components/ui/badge';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useDialog } from '@/app/dialog-provider';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { API_KEYS_QUERY, apiKeysQuery, deleteApiKeys, type TListedApiKey } from '../api-keys-api';
import { refreshDashboard } from '@/features/dashboard/dashboard-data';
import { KeyLimits, KeyStatus } from '../key-controls';
import { RevealKey } from '../reveal-key';
import { LimitsReached } from '@/features/usage/components/limits-reached';

/** /account/apikeys: the account's keys, masked until revealed; edit, revoke, delete, bulk delete. */
export default function ApiKeysPage() {
  const { t } = useTranslation('apikeys');
  const navigate = useNavigate();
  const dialog = useDialog();
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysQuery);
  useEffect(() => {
    if (keys.error) handleError(keys.error);
  }, [keys.error, handleError]);

  // A revoked or deleted key leaves the dashboard's checklist and snippets too.
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY }), refreshDashboard(queryClient)]);

  function confirm(title: string, description: string, buttonText: string, run: () => Promise<unknown>) {
    dialog.open({
      title,
      description,
      buttonText,
      callback: (ok) => {
        if (ok !== true) return;
        run()
          .then(() => {
            toast({ variant: 'success', title: t('list.done') });
            return refresh();
          })
          .catch(handleError);
      },
    });
  }

  const columns: TColumn<TListedApiKey>[] = [
    { key: 'name', header: t('list.name'), sortable: true },
    { key: 'key', header: t('list.key'), cell: (row) => <RevealKey apiKey={row} /> },
    {
      key: 'scope',
      header: t('list.scope'),
      cell: (row) => (
        <span className="flex flex-wrap gap-1">
          {row.scope.map((s) => (
            <Badge key={s} title={s}>
              {t(`scopes.${s}`, { defaultValue: s })}
            </Badge>
          ))}
        </span>
      ),
    },
    // Expiry, the calls against the cap and the routes, stacked: sorted by the cap.
    {
      key: 'monthly_calls',
      header: t('list.limits'),
      sortable: true,
      className: 'sm:min-w-56',
      cell: (row) => <KeyLimits apiKey={row} />,
    },
    { key: 'active', header: t('list.status'), sortable: true, cell: (row) => <KeyStatus apiKey={row} /> },
  ];

  const createButton = (
    <Button asChild>
      <Link to="/account/apikeys/create">
        <Plus aria-hidden="true" />
        {t('list.create')}
      </Link>
    </Button>
  );

  return (
    <section>
      <PageHeading>{keys.data && keys.data.length > 0 ? createButton : null}</PageHeading>
      <div className="mb-4 empty:hidden">
        <LimitsReached />
      </div>
      {keys.data && keys.data.length === 0 ? (
        <BlankSlate title={t('list.emptyTitle')} text={t('list.emptyText')} action={createButton} />
      ) : (
        <DataTable<TListedApiKey>
          label={t('list.label')}
          data={keys.data}
          loading={keys.isPending}
          columns={columns}
          searchKeys={['name']}
          selectable
          onRowClick={(row) => void navigate(`/account/apikeys/edit?id=${encodeURIComponent(row.id)}`)}
          rowLabel={(row) => row.name}
          actions={[
            {
              label: t('list.edit'),
              onSelect: (row) => void navigate(`/account/apikeys/edit?id=${encodeURIComponent(row.id)}`),
            },
            {
              label: t('list.revoke'),
              show: (row) => row.active,
              destructive: true,
              onSelect: (row) =>
                confirm(
                  t('revoke.title'),
                  t('revoke.description', { name: row.name }),
                  t('revoke.button'),
                  () => call('PATCH /api/key/:id', { params: { id: row.id }, body: { active: false } }),
                ),
            },
            {
              label: t('list.delete'),
              destructive: true,
              onSelect: (row) =>
                confirm(t('delete.title'), t('delete.description', { count: 1 }), t('delete.button'), () =>
                  deleteApiKeys([row.id]),
                ),
            },
          ]}
          bulkActions={[
            {
              label: t('list.delete'),
              destructive: true,
              onSelect: (rows) =>
                confirm(
                  t('delete.title'),
                  t('delete.description', { count: rows.length }),
                  t('delete.button'),
                  () => deleteApiKeys(rows.map((r) => r.id)),
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
