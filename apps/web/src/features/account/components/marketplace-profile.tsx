import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { PROVIDER_PROFILE_MAX, ZProviderProfileUpdate } from '@air/shared/schemas/marketplace';
import { Form } from '@/components/form/form';
import type { TFormFields } from '@/components/form/types';
import { toast } from '@/components/ui/use-toast';
import { useApiQuery } from '@/features/account/lib/use-api-query';

/**
 * The owner's marketplace profile (issue 44 item 4): the short text its provider page shows
 * (`/marketplace/{provider}`), plain text, validated by the shared schema.
 */
export function MarketplaceProfileForm() {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const query = useApiQuery('GET /api/account/marketplace-profile');
  if (query.isPending) return null;
  const fields: TFormFields = {
    profile: {
      type: 'textarea',
      label: t('marketplaceProfile.label'),
      description: t('marketplaceProfile.hint', { max: PROVIDER_PROFILE_MAX }),
      value: query.data?.profile ?? '',
    },
  };
  return (
    <section className="mt-8 space-y-2" aria-labelledby="marketplace-profile-title">
      <h2 id="marketplace-profile-title" className="text-lg font-semibold">
        {t('marketplaceProfile.title')}
      </h2>
      <Form
        key={query.dataUpdatedAt}
        fields={fields}
        schema={ZProviderProfileUpdate}
        call="PUT /api/account/marketplace-profile"
        buttonText={t('marketplaceProfile.save')}
        onSuccess={() => {
          void queryClient.invalidateQueries({ queryKey: ['GET /api/account/marketplace-profile'] });
          toast({ variant: 'success', title: t('marketplaceProfile.saved') });
        }}
      />
    </section>
  );
}
