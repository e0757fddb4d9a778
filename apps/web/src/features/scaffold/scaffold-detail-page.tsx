import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { Breadcrumb } from '@/components/layout/breadcrumb';
import { formatDateTime } from '@/lib/format-date';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchItem } from './scaffold-api';
import type { TScaffoldKind } from './scaffold-kinds';
import { useItemDialogs } from './use-item-dialogs';

/** The generic detail page: reads the first row the detail call returns; edit and delete. */
export function ScaffoldDetailPage({ kind }: { kind: TScaffoldKind }) {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('scaffold');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const item = useQuery({
    queryKey: ['items', kind.kind, id],
    retry: false,
    queryFn: () => fetchItem(kind, id),
  });
  const dialogs = useItemDialogs(kind, () => void item.refetch());
  useEffect(() => {
    if (item.error) handleError(item.error);
  }, [item.error, handleError]);

  const label = t(`kind.${kind.kind}`);
  return (
    <section className="space-y-4">
      <Breadcrumb
        items={[
          { name: label, url: kind.listPath },
          { name: item.data?.name ?? id, url: `${kind.listPath}/${id}` },
        ]}
      />
      {item.isPending ? (
        <p role="status" className="inline-flex items-center gap-2 text-muted-foreground">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {t('common:loading')}
        </p>
      ) : item.data ? (
        <Card className="max-w-xl">
          <CardHeader>
            <h1 className="text-2xl font-semibold tracking-tight break-all">{item.data.name}</h1>
          </CardHeader>
          <CardContent className="space-y-4">
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-muted-foreground">{t('id')}</dt>
              <dd className="font-mono break-all">{item.data.id}</dd>
              {item.data.date_created && (
                <>
                  <dt className="text-muted-foreground">{t('created')}</dt>
                  <dd>{formatDateTime(item.data.date_created, i18n.language)}</dd>
                </>
              )}
            </dl>
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => item.data && dialogs.edit(item.data)}>
                {t('edit')}
              </Button>
              <Button
                variant="destructive"
                onClick={() => item.data && dialogs.remove([item.data], () => void navigate(kind.listPath))}
              >
                {t('delete')}
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : (
        <BlankSlate
          title={t('missingTitle', { kind: label })}
          text={t('missingText')}
          action={<Button onClick={dialogs.create}>{t('new')}</Button>}
        />
      )}
    </section>
  );
}
