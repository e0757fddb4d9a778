import type { TBilling } from './context';
import type { TPayment } from './provider';

/**
 * Cancels a payment held for the card holder's authentication. Answers it when the card holder
 * completed it first (then it pays the invoice), else null. A processor failure is logged and
 * leaves the payment as it was: the renewal goes on.
 */
export async function releaseHeldPayment(
  b: TBilling,
  accountId: string,
  paymentId: string,
): Promise<TPayment | null> {
  const after = await b.provider.cancelPayment(paymentId).catch((error: unknown) => {
    b.log.error({ err: error, accountId, paymentId }, 'cancelling a held payment failed');
    return null;
  });
  return after?.status === 'succeeded' ? after : null;
}
