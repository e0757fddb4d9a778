import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { engineOptions, schemaResolver } from './engine';
import { useSchema } from './schema-loader';
import { initialValues, type TFormFields, type TFormSchema, type TFormValues } from './types';

export type { TFieldError } from './engine';

/**
 * The one form engine as a hook: react-hook-form with the request schema as its resolver and the
 * spec's timing (see engineOptions). Choice controls (select, switch, date…) validate as they
 * change: the generic form triggers them.
 */
export function useSchemaForm(fields: TFormFields, schema: TFormSchema) {
  const loadSchema = useSchema(schema);
  // Like its initial values, a form's fields are its first ones (re-mount it with a key to change
  // them), as react-hook-form reads its options once.
  const [resolver] = useState(() => schemaResolver(() => fields, loadSchema));
  return useForm<TFormValues>(engineOptions(initialValues(fields), resolver));
}
