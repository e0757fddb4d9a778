import { useEffect, useState } from 'react';
import type { TBillingConfig } from '@air/shared/schemas/billing';
import {
  CardTokenError,
  registerCardField,
  registerCardTokenizer,
  registerPaymentConfirmer,
} from '@/components/form/payment-step';
import { ApiError, call } from '@/lib/api';
import i18n from '@/lib/i18n';
import { LocalCardField } from '../components/local-card-field';
import { createLocalProcessor } from './local-processor';
import type { TCardProcessor } from './processor';

/** Plugs a processor into the generic form's card step (see components/form/payment-step.ts). */
function register(processor: TCardProcessor) {
  registerCardTokenizer(async (card) => {
    const { token, error } = await processor.createToken(card);
    if (!token) throw new CardTokenError(error?.message || i18n.t('billing:card.refused'));
    return token.id;
  });
  registerPaymentConfirmer(async ({ clientSecret }) => {
    const { paymentIntent, error } = await processor.confirmCardPayment(clientSecret);
    // A failed confirmation is the processor refusing the card, as a declined card is: its message
    // lands under the card field (`token`, every billing form's card) where the form shows one.
    if (!paymentIntent) {
      throw new ApiError(400, {
        message: error?.message || i18n.t('billing:authenticate.failed'),
        code: error?.code,
        inputError: 'token',
      });
    }
    return { payment_intent: paymentIntent.id };
  });
}

/** Registers the configured processor; resolves false when none could be set up (Stripe.js down). */
export async function setUpPayments(config: TBillingConfig): Promise<boolean> {
  if (config.provider === 'stripe' && config.publishable_key) {
    const [{ loadStripeProcessor }, { createStripeCardField }] = await Promise.all([
      import('./stripe-processor'),
      import('../components/stripe-card-field'),
    ]);
    const loaded = await loadStripeProcessor(config.publishable_key);
    if (!loaded) return false;
    registerCardField(createStripeCardField(loaded.stripe));
    register(loaded.processor);
    return true;
  }
  registerCardField(LocalCardField);
  register(createLocalProcessor());
  return true;
}

let setUp: Promise<boolean> | null = null;

/** Reads the billing configuration once per page load and registers its processor. */
export function ensurePayments(): Promise<boolean> {
  setUp ??= call('GET /api/billing/config')
    .then((res) => setUpPayments(res.data ?? { provider: 'local', publishable_key: null }))
    .catch((error: unknown) => {
      setUp = null; // Try again on the next page that needs it.
      throw error;
    });
  return setUp;
}

/** For tests: forget the registered processor. */
export function resetPayments() {
  setUp = null;
  registerCardField(null);
  registerCardTokenizer(null);
  registerPaymentConfirmer(null);
}

/** A page that takes cards: `ready` once the processor is registered (the card field waits for it). */
export function usePayments(): { ready: boolean; failed: boolean } {
  const [state, setState] = useState({ ready: false, failed: false });
  useEffect(() => {
    let live = true;
    ensurePayments().then(
      (ok) => live && setState({ ready: ok, failed: !ok }),
      () => live && setState({ ready: false, failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
