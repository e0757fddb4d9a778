import { useTranslation } from 'react-i18next';
import { MoreHorizontal } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import type { TRowAction } from './types';

/** One row's actions menu (the actions that apply to the row; nothing when none does). */
export function RowActionsMenu<T>({ row, actions }: { row: T; actions: TRowAction<T>[] }) {
  const { t } = useTranslation('table');
  const rowActions = actions.filter((action) => !action.show || action.show(row));
  if (rowActions.length === 0) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t('actions')}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {rowActions.map((action) => (
          <DropdownMenuItem
            key={action.label}
            className={cn(action.destructive && 'text-destructive focus:text-destructive')}
            onSelect={() => action.onSelect(row)}
          >
            {action.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
