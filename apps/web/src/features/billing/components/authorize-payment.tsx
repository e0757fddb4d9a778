import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionAuthorize } from '@air/shared/schemas/billing';
import { Form } from '@/components/form/form';
import { afterBillingChange } from '../lib/billing-queries';

/**
 * The `requires_action` banner's button: a renewal the bank holds for the card holder's
 * authentication. The server answers the payment's client secret, the form runs the 3-D Secure
 * step (the "Authenticate payment" dialog, or Stripe.js) and repeats the call with the result;
 * then the subscription is active again and the billing reads are fetched anew.
 */
export function AuthorizePayment() {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  return (
    <Form
      fields={{}}
      schema={ZSubscriptionAuthorize}
      call="POST /api/account/subscription/authorize"
      buttonText={t('banner.requiresAction.authorize')}
      className="space-y-0"
      onSuccess={(response) =>
        void afterBillingChange(queryClient, 'data' in response ? response.data : null)
      }
    />
  );
}
