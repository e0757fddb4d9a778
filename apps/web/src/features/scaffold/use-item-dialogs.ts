import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ZItemInput } from '@air/shared/schemas/item';
import { useDialog } from '@/app/dialog-provider';
import type { TFormFields } from '@/components/form/types';
import { toast } from '@/components/ui/use-toast';
import { useErrorHandler } from '@/lib/error-handler';
import { deleteItems, itemsQuery } from './scaffold-api';
import type { TItem } from '@air/shared/schemas/item';
import type { TScaffoldKind } from './scaffold-kinds';

/** The name-only form dialogs (create, edit) and the delete confirmation, shared by list and detail. */
export function useItemDialogs(kind: TScaffoldKind, onChanged?: () => void) {
  const { t } = useTranslation('scaffold');
  const dialog = useDialog();
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const label = t(`kind.${kind.kind}`);

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['items', kind.kind] });
    onChanged?.();
  };
  const nameField = (value?: string): TFormFields => ({
    name: { type: 'text', label: t('name'), value },
  });

  return {
    create: () =>
      dialog.open({
        title: t('createTitle', { kind: label }),
        buttonText: t('create'),
        call: `POST /api/${kind.kind}` as const,
        fields: nameField(),
        schema: ZItemInput,
        callback: (result) => result && changed(),
      }),
    edit: (item: TItem) =>
      dialog.open({
        title: t('editTitle', { kind: label }),
        buttonText: t('save'),
        call: `PATCH /api/${kind.kind}/:id` as const,
        params: { id: item.id },
        fields: nameField(item.name),
        schema: ZItemInput,
        callback: (result) => result && changed(),
      }),
    remove: (items: TItem[], after?: () => void) =>
      dialog.open({
        title: t('deleteTitle', { kind: label }),
        description: t('deleteDescription', { count: items.length }),
        buttonText: t('delete'),
        callback: (ok) => {
          if (ok !== true) return;
          deleteItems(
            kind,
            items.map((i) => i.id),
          )
            .then(() => {
              toast({ variant: 'success', title: t('deleted', { count: items.length }) });
              void queryClient.invalidateQueries({ queryKey: itemsQuery(kind) });
              after?.();
            })
            .catch(handleError);
        },
      }),
  };
}
