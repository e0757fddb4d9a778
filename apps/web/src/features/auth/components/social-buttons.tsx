import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '@/components/ui/button';
import { call } from '@/lib/api';
import { cn } from '@/lib/utils';
import type { TSocialProvider } from '@air/shared/schemas/social';

function apiBase(): string {
  return (import.meta.env.VITE_API_URL as string | undefined) ?? '';
}

/**
 * One button per configured OpenID provider (`GET /api/auth/providers`). Each is a plain link: the
 * server's `/api/auth/social/<name>` starts the authorization-code flow with a redirect. When the
 * list cannot be loaded the buttons are simply absent, so password and magic-link sign-in stay
 * usable (the shared handler would send a 404 to /notfound, away from the sign-in page).
 */
export function SocialButtons() {
  const { t } = useTranslation('auth');
  const [providers, setProviders] = useState<TSocialProvider[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    call('GET /api/auth/providers', { signal: controller.signal })
      // The list starts empty and only ever fills: no providers, a failed call or a page already
      // gone (an answer on its way still resolves after the abort) leave the state alone.
      .then(
        (res) => {
          const list = res.data ?? [];
          if (!controller.signal.aborted && list.length > 0) setProviders(list);
        },
        () => {},
      );
    return () => controller.abort();
  }, []);

  if (providers.length === 0) return null;
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
        <span className="h-px flex-1 bg-border" aria-hidden="true" />
        {t('signin.or')}
        <span className="h-px flex-1 bg-border" aria-hidden="true" />
      </div>
      {providers.map((provider) => (
        <a
          key={provider.name}
          href={`${apiBase()}/api/auth/social/${encodeURIComponent(provider.name)}`}
          className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}
        >
          {t('signin.social', { provider: provider.label })}
        </a>
      ))}
    </div>
  );
}
