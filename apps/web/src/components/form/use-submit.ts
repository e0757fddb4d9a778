import { useNavigate } from 'react-router';
import type { UseFormReturn } from 'react-hook-form';
import type { TWriteCall } from '@/lib/api';
import { runSubmit, type TSubmitOptions } from './submit';
import type { TFormValues } from './types';

/** runSubmit for a form on the engine's hook, then the route to go to after success, if any. */
export function useFormSubmit<K extends TWriteCall>(
  form: Pick<UseFormReturn<TFormValues>, 'setError'>,
  options: TSubmitOptions<K> & { redirect?: string },
) {
  const navigate = useNavigate();
  return async (values: TFormValues) => {
    const { redirect, onSuccess } = options;
    await runSubmit(values, form.setError, {
      ...options,
      onSuccess: async (response, sent) => {
        await onSuccess?.(response, sent);
        if (redirect) void navigate(redirect);
      },
    });
  };
}
