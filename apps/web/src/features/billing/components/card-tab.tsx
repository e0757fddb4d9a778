import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { ZCardUpdate, type TCard } from '@air/shared/schemas/billing';
import { Form } from '@/components/form/form';
import type { TFormFields } from '@/components/form/types';
import { afterBillingChange } from '../lib/billing-queries';

/**
 * The Card tab: the card on file (brand, last four digits, expiry) and a form that adds or replaces it
 * (PATCH /api/account/card with a card token). A declined card shows the processor's message on
 * the card field; a lapsed subscription's open invoice is retried on the new card by the server.
 */
export function CardTab({ card, free = false }: { card: TCard | null; free?: boolean }) {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  // A new form after each update: the card inputs start empty again.
  const [round, setRound] = useState(0);
  const fields: TFormFields = {
    token: { type: 'card', label: t('card.newCard') },
  };
  return (
    <div className="grid max-w-xl gap-6">
      {card ? (
        <div className="flex items-center gap-3 rounded-lg border p-4" data-card-on-file>
          <CreditCard className="size-6 text-muted-foreground" aria-hidden="true" />
          <div className="grid gap-0.5">
            <p className="font-medium">
              {t('card.onFile', { brand: brandName(card.brand), last4: card.last4 })}
            </p>
            <p className="text-sm text-muted-foreground">
              {t('card.expires', {
                month: String(card.exp_month).padStart(2, '0'),
                year: String(card.exp_year).slice(-2),
              })}
            </p>
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t('card.none')}</p>
      )}
      {free && <p className="text-sm text-muted-foreground">{t('card.freeNote')}</p>}
      <Form
        key={round}
        fields={fields}
        schema={ZCardUpdate}
        call="PATCH /api/account/card"
        buttonText={t('card.update')}
        onSuccess={() => {
          setRound((n) => n + 1);
          void afterBillingChange(queryClient, null);
        }}
      />
    </div>
  );
}

function brandName(brand: string): string {
  const known: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    discover: 'Discover',
  };
  return known[brand.toLowerCase()] ?? brand;
}
