import { ApiError, call } from '@/lib/api';
import { requestAuthentication } from './authentication';
import type { TLocalCardTokenRequest } from '@air/shared/schemas/billing';
import type { TCardProcessor, TProcessorError } from './processor';

/** A 400 is the processor refusing the card or the payment; anything else is the handler's. */
function refusal(error: unknown): TProcessorError {
  if (error instanceof ApiError && error.status === 400 && error.body && typeof error.body === 'object') {
    const code = typeof error.body.code === 'string' ? error.body.code : undefined;
    return { message: error.body.message ?? '', code };
  }
  throw error;
}

/**
 * The local card processor's client. Tokens are made by the server (the card number never stays
 * in the console); the 3-D Secure challenge is the "Authenticate payment" dialog, whose answer
 * the server records on the payment intent named by the client secret.
 */
export function createLocalProcessor(): TCardProcessor {
  return {
    async createToken(card) {
      try {
        const res = await call('POST /api/billing/local/token', { body: card as TLocalCardTokenRequest });
        return res.data?.id ? { token: { id: res.data.id } } : { error: { message: res.message ?? '' } };
      } catch (error) {
        return { error: refusal(error) };
      }
    },
    async confirmCardPayment(clientSecret) {
      const outcome = await requestAuthentication();
      try {
        const res = await call('POST /api/billing/local/confirm', {
          body: { client_secret: clientSecret, outcome },
        });
        const intent = res.data?.payment_intent;
        if (!intent || intent.status !== 'succeeded') {
          return { error: { message: res.message ?? '', code: 'payment_intent_authentication_failure' } };
        }
        return { paymentIntent: intent };
      } catch (error) {
        return { error: refusal(error) };
      }
    },
  };
}
