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
