import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { TBulkAction } from './types';

/** The bar above the table: the search box, the bulk actions over the selected rows, the caller's controls. */
export function TableToolbar<T>({
  search,
  query,
  onQueryChange,
  bulkActions,
  selectedRows,
  onBulkDone,
  toolbar,
}: {
  search: boolean;
  query: string;
  onQueryChange: (query: string) => void;
  bulkActions: TBulkAction<T>[] | undefined;
  selectedRows: T[];
  onBulkDone: () => void;
  toolbar: ReactNode;
}) {
  const { t } = useTranslation('table');
  return (
    <div className="flex flex-wrap items-center gap-2">
      {search ? (
        <div className="relative w-full sm:max-w-xs">
          <Search
            className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label={t('search')}
            placeholder={t('search')}
            value={query}
            className="pl-9"
            onChange={(event) => onQueryChange(event.target.value)}
          />
        </div>
      ) : null}
      {bulkActions?.length && selectedRows.length > 0 ? (
        <div className="flex items-center gap-2" role="group" aria-label={t('bulkActions')}>
          <span className="text-sm text-muted-foreground">
            {t('selected', { count: selectedRows.length })}
          </span>
          {bulkActions.map((action) => (
            <Button
              key={action.label}
              size="sm"
              variant={action.destructive ? 'destructive' : 'outline'}
              onClick={() => {
                action.onSelect(selectedRows);
                onBulkDone();
              }}
            >
              {action.label}
            </Button>
          ))}
        </div>
      ) : null}
      {toolbar && <div className="ml-auto flex items-center gap-2">{toolbar}</div>}
    </div>
  );
}
