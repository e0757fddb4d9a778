import { useTranslation } from 'react-i18next';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import type { TAnswerOf } from '@air/shared/api';
import { ZUpdateAiEndpoint } from '@air/shared/schemas/aiendpoint';
import type { TFormValues } from '@/components/form/types';
import { useBodyForm, useBodySubmit, type TBodyFormOptions } from '@/components/form/use-body-form';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

type TEndpointPatch = 'PATCH /api/aiendpoint/:id';

/**
 * A card of the endpoint's Settings tab (price, headers and timeout, routing): a body form on the
 * one engine with the server's schema (ZUpdateAiEndpoint), saved with `PATCH /api/aiendpoint/:id`;
 * "Saved" on success, a refusal under the field `fieldOf` names, anything else to the error handler.
 */
export function useEndpointConfigForm<V extends FieldValues>({
  endpoint,
  defaultValues,
  toBody,
  fieldOf,
  extraIssues,
  onSuccess,
}: Omit<TBodyFormOptions<V>, 'schema'> & {
  endpoint: Pick<TAiEndpoint, 'id'>;
  defaultValues: DefaultValues<V>;
  /** The call's answer, the body sent, and the form (to reset it to what the server now holds). */
  onSuccess: (answer: TAnswerOf<TEndpointPatch>, sent: TFormValues, form: UseFormReturn<V>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const form = useBodyForm<V>({ defaultValues, schema: ZUpdateAiEndpoint, toBody, fieldOf, extraIssues });
  const send = useBodySubmit(form, {
    call: 'PATCH /api/aiendpoint/:id',
    params: { id: endpoint.id },
    fieldOf,
    onError: handleError,
    successMessage: t('detail.saved'),
    onSuccess: (answer, sent) => onSuccess(answer, sent, form),
  });
  const onSubmit = form.handleSubmit((values) => send(toBody(values)));
  return { form, onSubmit, saving: form.formState.isSubmitting };
}
