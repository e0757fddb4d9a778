import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { clearSession } from '@/lib/session';
import { formatDateTime } from '@/lib/format-date';

/**
 * The profile's session list (GET /api/user/sessions): device, IP and last activity of every
 * signed-in browser, this one marked, each with "Sign out", plus "Sign out all other sessions".
 */
export function SessionList() {
  const { t, i18n } = useTranslation('account');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const query = useApiQuery('GET /api/user/sessions');
  const [busy, setBusy] = useState<string | null>(null);
  const list = query.data ?? [];
  const others = list.filter((session) => !session.current);
  const when = (iso: string) => formatDateTime(iso, i18n.language);

  async function signOut(target: string | 'others', current = false) {
    setBusy(target);
    try {
      const res = await (target === 'others'
        ? call('DELETE /api/user/sessions')
        : call('DELETE /api/user/sessions/:id', { params: { id: target } }));
      if (current) {
        clearSession();
        void navigate('/signin');
        return;
      }
      toast({ variant: 'success', title: res.message ?? t('sessions.signedOut') });
      await queryClient.invalidateQueries({ queryKey: ['GET /api/user/sessions'] });
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="sessions-title" className="mt-10 space-y-4">
      <div>
        <h2 id="sessions-title" className="text-lg font-semibold">
          {t('sessions.title')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('sessions.intro')}</p>
      </div>
      {query.isPending ? (
        <div role="status" className="flex justify-center py-4">
          <Loader2 className="size-5 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label={t('sessions.title')}>
          {list.map((session) => (
            <li
              key={session.id}
              data-testid="session-row"
              className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0 space-y-1 text-sm">
                <p className="font-medium break-words">
                  {session.device || t('sessions.unknownDevice')}
                  {session.current && (
                    <span className="ms-2 rounded-full bg-muted px-2 py-0.5 text-xs font-normal">
                      {t('sessions.thisSession')}
                    </span>
                  )}
                </p>
                <p className="text-muted-foreground">
                  {t('sessions.details', { ip: session.ip ?? '—', when: when(session.last_seen_at) })}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                loading={busy === session.id}
                disabled={busy !== null}
                onClick={() => void signOut(session.id, session.current)}
              >
                {session.current ? t('sessions.signOutThis') : t('sessions.signOut')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <Button
          variant="outline"
          loading={busy === 'others'}
          disabled={busy !== null}
          onClick={() => void signOut('others')}
        >
          {t('sessions.signOutOthers')}
        </Button>
      )}
    </section>
  );
}
