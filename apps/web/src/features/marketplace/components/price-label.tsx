import { useTranslation } from 'react-i18next';
import type { TPrice } from '@air/shared/schemas/price';
import { formatMicros, priceParts } from '../catalog-format';

/** "Free", or each priced part: `$0.05 per call · $1.50 per 1M input tokens`. */
export function PriceLabel({ price, currency }: { price: TPrice | null; currency: string }) {
  const { t, i18n } = useTranslation('marketplace');
  const parts = price ? priceParts(price) : [];
  if (parts.length === 0) return <span data-testid="price">{t('catalog.free')}</span>;
  return (
    <span data-testid="price">
      {parts
        .map(([key, amount]) =>
          t(`catalog.${key}`, { amount: formatMicros(amount, currency, i18n.language) }),
        )
        .join(' · ')}
    </span>
  );
}

/**
 * An MCP endpoint's per-tool prices (decision 063): each tool priced on its own, `search: $0.03
 * per call` (or free), in place of the price per call for that tool. Nothing when it has none.
 */
export function ToolPrices({ prices, currency }: { prices?: Record<string, number>; currency: string }) {
  const { t, i18n } = useTranslation('marketplace');
  const entries = Object.entries(prices ?? {});
  if (entries.length === 0) return null;
  return (
    <div className="space-y-1" data-testid="tool-prices">
      <p className="text-muted-foreground">{t('catalog.toolPrices')}</p>
      <ul className="space-y-0.5">
        {entries.map(([tool, micros]) => (
          <li key={tool} className="flex justify-between gap-2">
            <span className="font-mono break-all">{tool}</span>
            <span className="shrink-0">
              {micros > 0
                ? t('catalog.perCall', { amount: formatMicros(micros, currency, i18n.language) })
                : t('catalog.free')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
