import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import type { TCardProcessor } from './processor';

/**
 * Stripe mode: Stripe.js from Stripe's servers with the publishable key the server configures.
 * The card widget is an Elements card element, so card numbers never touch AIR; the processor
 * methods are Stripe.js's own. A script that fails to load is logged and leaves no processor: the
 * card field then says card entry is unavailable, and nothing is submitted without the card step.
 */
export async function loadStripeProcessor(
  publishableKey: string,
): Promise<{ stripe: Stripe; processor: TCardProcessor } | null> {
  let stripe: Stripe | null;
  try {
    const { loadStripe } = await import('@stripe/stripe-js');
    stripe = await loadStripe(publishableKey);
  } catch (error) {
    console.error('Stripe.js failed to load', error);
    return null;
  }
  if (!stripe) return null;
  const loaded = stripe;
  const processor: TCardProcessor = {
    async createToken(card) {
      const { token, error } = await loaded.createToken(card as StripeCardElement);
      return error ? { error: { message: error.message ?? '', code: error.code } } : { token };
    },
    async confirmCardPayment(clientSecret) {
      const { paymentIntent, error } = await loaded.confirmCardPayment(clientSecret);
      return error ? { error: { message: error.message ?? '', code: error.code } } : { paymentIntent };
    },
  };
  return { stripe: loaded, processor };
}
