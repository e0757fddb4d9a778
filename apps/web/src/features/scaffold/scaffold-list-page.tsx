import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { DataTable } from '@/components/table/data-table';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchItems, itemsQuery } from './scaffold-api';
import type { TItem } from '@air/shared/schemas/item';
import { CREATE_PARAM, type TScaffoldKind } from './scaffold-kinds';
import { useItemDialogs } from './use-item-dialogs';

/** The generic name-only list: search, multi-select, view/edit/delete, bulk delete, global New. */
export function ScaffoldListPage({ kind }: { kind: TScaffoldKind }) {
  const { t } = useTranslation('scaffold');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const items = useQuery({ queryKey: itemsQuery(kind), queryFn: () => fetchItems(kind) });
  const dialogs = useItemDialogs(kind);
  const [params, setParams] = useSearchParams();
  const createRequested = params.get(CREATE_PARAM) === '1';
  useEffect(() => {
    if (items.error) handleError(items.error);
  }, [items.error, handleError]);
  const createHandled = useRef(false);
  useEffect(() => {
    // Once per visit of ?create=1: renders before the URL drops it must not open a second dialog.
    if (!createRequested) {
      createHandled.current = false;
      return;
    }
    if (createHandled.current) return;
    createHandled.current = true;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete(CREATE_PARAM);
        return next;
      },
      { replace: true },
    );
    dialogs.create();
  }, [createRequested, setParams, dialogs]);

  const newButton = (
    <Button onClick={dialogs.create}>
      <Plus aria-hidden="true" />
      {t('new')}
    </Button>
  );

  return (
    <section>
      <PageHeading>{items.data?.length ? newButton : null}</PageHeading>
      {items.data && items.data.length === 0 ? (
        <BlankSlate title={t('emptyTitle')} text={t('emptyText')} action={newButton} />
      ) : (
        <DataTable<TItem>
          label={t(`kind.${kind.kind}`)}
          data={items.data}
          loading={items.isPending}
          columns={[
            { key: 'name', header: t('name'), sortable: true },
            { key: 'date_created', header: t('created'), sortable: true, type: 'date' },
          ]}
          searchKeys={['name']}
          selectable
          onRowClick={(item) => void navigate(`${kind.listPath}/${item.id}`)}
          rowLabel={(item) => item.name}
          actions={[
            { label: t('view'), onSelect: (item) => void navigate(`${kind.listPath}/${item.id}`) },
            { label: t('edit'), onSelect: dialogs.edit },
            { label: t('delete'), destructive: true, onSelect: (item) => dialogs.remove([item]) },
          ]}
          bulkActions={[{ label: t('delete'), destructive: true, onSelect: (rows) => dialogs.remove(rows) }]}
        />
      )}
    </section>
  );
}
