import { useEffect, useMemo, useRef } from 'react';
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
  const fieldsRef = useRef(fields);
  useEffect(() => {
    fieldsRef.current = fields;
  }, [fields]);
  const resolver = useMemo(() => schemaResolver(() => fieldsRef.current, loadSchema), [loadSchema]);
  return useForm<TFormValues>(engineOptions(initialValues(fields), resolver));
}
