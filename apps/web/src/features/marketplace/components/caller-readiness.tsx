import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, CircleAlert } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import { Button } from '@/components/ui/button';
import { call } from '@/lib/api';
import { useSession } from '@/lib/session';
import { rememberReturnAfterSignup } from '@/lib/return-after-signup';
import { apiKeysQuery } from '@/features/apikeys/api-keys-api';

/** One thing a caller needs: met (a check) or not (what to do, with a link when they can do it). */
function Need({ met, text, action }: { met: boolean; text: string; action?: { to: string; label: string } }) {
  const Icon = met ? CheckCircle2 : CircleAlert;
  return (
    <li className="flex items-start gap-2" data-met={met}>
      <Icon
        className={
          met
            ? 'mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400'
            : 'mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400'
        }
        aria-hidden="true"
      />
      <span>
        {text}{' '}
        {action && !met && (
          <Link to={action.to} className="font-medium underline underline-offset-2">
            {action.label}
          </Link>
        )}
      </span>
    </li>
  );
}

/**
 * What a caller needs before the first call to this endpoint (issue 38 item 6): a key that may call
 * the gateway, and for a priced endpoint a card on file (else the call is refused with 402). A
 * visitor is asked to sign up, and comes back here once signed up. What a member may not do
 * themselves is said with whom to ask.
 */
export function CallerReadiness({ priced, path }: { priced: boolean; path: string }) {
  const { t } = useTranslation('marketplace');
  const { signedIn, user } = useSession();
  const developer = hasPermission(user?.permission, 'developer');
  const owner = hasPermission(user?.permission, 'owner');
  const keys = useQuery({ ...apiKeysQuery, enabled: signedIn && developer });
  const card = useQuery({
    queryKey: ['GET /api/account/card'],
    enabled: signedIn && owner && priced,
    queryFn: async ({ signal }) => (await call('GET /api/account/card', { signal })).data ?? null,
  });

  if (!signedIn) {
    return (
      <Button asChild size="sm">
        <Link to="/signup" onClick={() => rememberReturnAfterSignup(path)}>
          {t('endpoint.signUp')}
        </Link>
      </Button>
    );
  }
  const hasKey = (keys.data ?? []).some((key) => key.active && key.scope.includes('gateway.invoke'));
  return (
    <div data-testid="caller-readiness" className="space-y-2">
      <p className="font-medium">{t('ready.title')}</p>
      <ul className="space-y-2">
        {developer ? (
          keys.isSuccess && (
            <Need
              met={hasKey}
              text={hasKey ? t('ready.keyMet') : t('ready.keyMissing')}
              action={{ to: '/account/apikeys/create', label: t('ready.createKey') }}
            />
          )
        ) : (
          <Need met={false} text={t('ready.keyAsk')} />
        )}
        {!priced ? (
          <Need met text={t('ready.free')} />
        ) : owner ? (
          card.isSuccess && (
            <Need
              met={card.data !== null}
              text={card.data !== null ? t('ready.cardMet') : t('ready.cardMissing')}
              action={{ to: '/account/billing', label: t('ready.addCard') }}
            />
          )
        ) : (
          <Need met={false} text={t('ready.cardAsk')} />
        )}
      </ul>
    </div>
  );
}
