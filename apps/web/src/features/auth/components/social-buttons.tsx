import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '@/components/ui/button';
import { api } from '@/lib/api';
import { cn } from '@/lib/utils';

export interface TSocialProvider {
  name: string;
  label: string;
}

/** Accepts `['google']` or `[{ name, label | display_name }]`; drops anything without a safe name. */
export function parseProviders(data: unknown): TSocialProvider[] {
  if (!Array.isArray(data)) return [];
  const out: TSocialProvider[] = [];
  for (const item of data) {
    const entry = typeof item === 'string' ? { name: item } : (item as Record<string, unknown> | null);
    const name = entry?.name;
    // The name becomes part of a URL path: only plain identifiers are linked.
    if (typeof name !== 'string' || !/^[a-z0-9_-]+$/i.test(name)) continue;
    const label = [entry?.label, entry?.display_name].find((v): v is string => typeof v === 'string' && !!v);
    out.push({ name, label: label ?? name.charAt(0).toUpperCase() + name.slice(1) });
  }
  return out;
}

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
    api
      .get<unknown>('/api/auth/providers', { signal: controller.signal })
      .then((res) => setProviders(parseProviders(res.data)))
      .catch(() => setProviders([]));
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
