import { useTranslation } from 'react-i18next';
import type { SortingState } from '@tanstack/react-table';
import { ListFilter } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { TColumn } from './types';

/** The phone's one Sort menu, in place of the column headers: every sortable column both ways. */
export function SortMenu<T>({
  columns,
  sorting,
  onSortingChange,
}: {
  columns: TColumn<T>[];
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
}) {
  const { t } = useTranslation('table');
  const sort = sorting[0];
  const sortableColumns = columns.filter((column) => column.sortable);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <ListFilter aria-hidden="true" />
          {sort
            ? t('sortedBy', {
                column: columns.find((column) => column.key === sort.id)?.header ?? sort.id,
                direction: t(sort.desc ? 'descending' : 'ascending'),
              })
            : t('sort')}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t('sort')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={sort ? `${sort.id}:${sort.desc ? 'desc' : 'asc'}` : ''}
          onValueChange={(value) => {
            const [id, direction] = value.split(':') as [string, string];
            onSortingChange([{ id, desc: direction === 'desc' }]);
          }}
        >
          {sortableColumns.flatMap((column) =>
            (['asc', 'desc'] as const).map((direction) => (
              <DropdownMenuRadioItem key={`${column.key}:${direction}`} value={`${column.key}:${direction}`}>
                {t('sortOption', {
                  column: column.header,
                  direction: t(direction === 'asc' ? 'ascending' : 'descending'),
                })}
              </DropdownMenuRadioItem>
            )),
          )}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
