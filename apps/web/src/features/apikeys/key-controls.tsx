import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/lib/format-number';
import { formatMinor } from '@/features/marketplace/catalog-format';
import type { TApiKey, TListedApiKey } from './api-keys-api';
import { formatDay } from '@/lib/format-date';

/** Has the key's expiry passed (at `now`)? The gateway refuses it from then on. */
export function isExpired(key: Pick<TApiKey, 'expires_at'>, now = Date.now()): boolean {
  return key.expires_at !== null && Date.parse(key.expires_at) <= now;
}

/** The key list's status: revoked, expired (still active, but refused since its expiry), or active. */
export function KeyStatus({ apiKey }: { apiKey: TApiKey }) {
  const { t } = useTranslation('apikeys');
  if (!apiKey.active) return <Badge variant="red">{t('list.revoked')}</Badge>;
  if (isExpired(apiKey)) return <Badge variant="orange">{t('list.expired')}</Badge>;
  return <Badge variant="green">{t('list.active')}</Badge>;
}

/**
 * The key controls of contract 6b and 6e in one column of the list (expiry, the calls against the
 * cap, the tokens beside the token limit, the spend against the budget, routes), one line each:
 * columns of their own pushed Status and the actions out of a 1280 px screen (issue 38).
 */
export function KeyLimits({ apiKey }: { apiKey: TListedApiKey }) {
  return (
    <span className="flex min-w-0 flex-col items-start gap-1.5">
      <KeyExpiry apiKey={apiKey} />
      <KeyCap apiKey={apiKey} />
      <KeyTokens apiKey={apiKey} />
      <KeySpend apiKey={apiKey} />
      <KeyRoutes apiKey={apiKey} />
    </span>
  );
}

/** The key's expiry as the list shows it. */
export function KeyExpiry({ apiKey }: { apiKey: TApiKey }) {
  const { t, i18n } = useTranslation('apikeys');
  if (apiKey.expires_at === null) return <span className="text-muted-foreground">{t('list.noExpiry')}</span>;
  // The stored expiry is the midnight that ends the picked day: show that day, as the form does
  // (the midnight itself read as the next day).
  const lastDay = new Date(Date.parse(apiKey.expires_at) - 1);
  return (
    <time dateTime={apiKey.expires_at} className="whitespace-nowrap">
      {t('list.through', {
        day: formatDay(lastDay, i18n.language),
      })}
    </time>
  );
}

/**
 * The key's calls this period against its cap (issue 38 item 2), as the server counts them: the
 * calls the cap counts, the calls refused for a limit, and "limit reached" once the cap is used up.
 */
export function KeyCap({ apiKey }: { apiKey: TListedApiKey }) {
  const { t } = useTranslation('apikeys');
  const { usage } = apiKey;
  const used = formatNumber(usage.calls);
  return (
    <span className="flex min-w-0 flex-col items-start gap-1" data-testid="key-usage">
      <span>
        {apiKey.monthly_calls === null
          ? t('list.usedNoCap', { count: usage.calls, used })
          : t('list.used', { count: apiKey.monthly_calls, used, cap: formatNumber(apiKey.monthly_calls) })}
      </span>
      {usage.limit_reached && apiKey.active && (
        // Wraps on a phone card rather than running out of it.
        <Badge variant="red" className="whitespace-normal">
          {t('list.limitReached')}
        </Badge>
      )}
      {usage.refused > 0 && (
        <span className="text-xs text-muted-foreground">
          {t('list.refused', { count: usage.refused, calls: formatNumber(usage.refused) })}
        </span>
      )}
    </span>
  );
}

/**
 * The key's tokens this period (prompt plus completion, as the server stores them) beside its own
 * tokens per minute (contract 6e), on one line, and only for a key that has a limit or used some:
 * a plain key's row stays as short as before (all four rows of a page fit a 1280 px screen).
 */
export function KeyTokens({ apiKey }: { apiKey: TListedApiKey }) {
  const { t } = useTranslation('apikeys');
  const { usage } = apiKey;
  if (apiKey.tokens_per_minute === null && usage.tokens === 0) return null;
  const tokens = formatNumber(usage.tokens);
  return (
    <span data-testid="key-tokens">
      {apiKey.tokens_per_minute === null
        ? t('list.tokensNoLimit', { count: usage.tokens, tokens })
        : t('list.tokens', { count: usage.tokens, tokens, limit: formatNumber(apiKey.tokens_per_minute) })}
    </span>
  );
}

/**
 * The key's marketplace spend this period against its budget (`monthly_spend`), in the billing
 * currency, for a key with a budget or some spend; "budget spent" once its priced calls are refused.
 */
export function KeySpend({ apiKey }: { apiKey: TListedApiKey }) {
  const { t, i18n } = useTranslation('apikeys');
  const { usage } = apiKey;
  if (apiKey.monthly_spend === null && usage.spend === 0) return null;
  const money = (minor: number) => formatMinor(minor, usage.currency, i18n.language);
  return (
    <span className="flex min-w-0 flex-col items-start gap-1" data-testid="key-spend">
      <span>
        {apiKey.monthly_spend === null
          ? t('list.spentNoBudget', { spent: money(usage.spend) })
          : t('list.spent', { spent: money(usage.spend), budget: money(apiKey.monthly_spend) })}
      </span>
      {usage.budget_reached && apiKey.active && (
        <Badge variant="red" className="whitespace-normal">
          {t('list.budgetReached')}
        </Badge>
      )}
    </span>
  );
}

export function KeyRoutes({ apiKey }: { apiKey: TApiKey }) {
  const { t } = useTranslation('apikeys');
  if (apiKey.routes === null) return <span className="text-muted-foreground">{t('list.allRoutes')}</span>;
  return (
    <span className="flex min-w-0 flex-wrap gap-1">
      {apiKey.routes.map((route) => (
        // A long route name breaks inside its badge (after its "/" first) rather than widening
        // the column or running out of a phone's card.
        <Badge key={route} className="whitespace-normal [overflow-wrap:anywhere]">
          {route.split('/').map((part, i) => (
            <React.Fragment key={i}>
              {i > 0 && (
                <>
                  /<wbr />
                </>
              )}
              {part}
            </React.Fragment>
          ))}
        </Badge>
      ))}
    </span>
  );
}
