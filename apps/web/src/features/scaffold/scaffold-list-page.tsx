import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { DataTable } from '@/components/table/data-table';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchItems, itemsQuery } from './scaffold-api';
import type { TScaffoldItem, TScaffoldKind } from './scaffold-kinds';
import { useItemDialogs } from './use-item-dialogs';

/** The generic name-only list: search, multi-select, view/edit/delete, bulk delete, global New. */
export function ScaffoldListPage({ kind }: { kind: TScaffoldKind }) {
  const { t } = useTranslation('scaffold');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const items = useQuery({ queryKey: itemsQuery(kind), queryFn: () => fetchItems(kind) });
  const dialogs = useItemDialogs(kind);
  useEffect(() => {
    if (items.error) handleError(items.error);
  }, [items.error, handleError]);

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
        <DataTable<TScaffoldItem>
          label={t(`kind.${kind.kind}`)}
          data={items.data}
          loading={items.isPending}
          columns={[
            { key: 'name', header: t('name'), sortable: true },
            { key: 'date_created', header: t('created'), sortable: true, type: 'date' },
          ]}
          searchKeys={['name']}
          selectable
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
