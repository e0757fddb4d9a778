import {
  set,
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { describeIssue, findBadText, type TIssueMessage } from '@air/shared/validation';
import type { TWriteCall } from '@/lib/api';
import { engineOptions, type TFieldError } from './engine';
import { useSchema } from './schema-loader';
import type { TSubmitOptions } from './submit';
import type { TFormSchema, TFormValues, TSchemaLike } from './types';
import { useFormSubmit } from './use-submit';

/**
 * The error slot of a body form's own message: an issue (or a server refusal) that names no field
 * the form shows (the header record as a whole). Not `root`: react-hook-form keeps root errors
 * out of a submit's validity.
 */
export const FORM_ERROR = 'form';

export interface TBodyFormOptions<V extends FieldValues> {
  defaultValues: DefaultValues<V>;
  /** The request's shared schema (the one the server validates the body with). */
  schema: TFormSchema;
  /** The request body the values make: what the schema validates and the call sends. */
  toBody: (values: V) => TFormValues;
  /**
   * The form field that shows an issue at a body path (`config.timeout_ms` → `timeout`,
   * `config.upstreams.1.url` → `upstreams.1.url`); undefined puts it in FORM_ERROR.
   */
  fieldOf: (path: string, values: V) => string | undefined;
  /**
   * Rules of the server that its request schema does not state (a header name the gateway
   * reserves), as issues keyed by form field; they come before the schema's.
   */
  extraIssues?: (values: V) => Record<string, TIssueMessage>;
}

/** The request schema as a resolver for a form whose values are not the body field for field. */
export function bodyResolver<V extends FieldValues>(
  loadSchema: () => Promise<TSchemaLike>,
  { toBody, fieldOf, extraIssues }: Omit<TBodyFormOptions<V>, 'defaultValues' | 'schema'>,
): Resolver<V> {
  return async (values) => {
    const schema = await loadSchema();
    const body = toBody(values);
    const found: Record<string, TIssueMessage> = { ...extraIssues?.(values) };
    const place = (issue: TIssueMessage) => {
      const name = fieldOf(issue.field, values) ?? FORM_ERROR;
      found[name] ??= issue;
    };
    // The shared stored-text rule first (the server's body parser refuses NUL and lone surrogates).
    const bad = findBadText(body);
    if (bad) place({ field: bad.field, key: bad.key, params: {} });
    const result = schema.safeParse(body);
    if (!result.success) for (const issue of result.error.issues) place(describeIssue(issue));
    const errors: FieldErrors<V> = {};
    for (const [name, issue] of Object.entries(found))
      set(errors, name, { type: 'schema', message: issue.key, params: issue.params } as TFieldError);
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/**
 * The one engine for a form whose widgets are not the request's fields one for one (amounts typed
 * as text and sent in minor units, header rows sent as a record, upstream rows): react-hook-form
 * holds the values and errors with the engine's timing, `toBody` makes the request body, and the
 * request schema validates it, each issue shown on the field `fieldOf` names.
 */
export function useBodyForm<V extends FieldValues>(options: TBodyFormOptions<V>) {
  const loadSchema = useSchema(options.schema);
  // react-hook-form takes its options on every render, so the resolver runs the latest rules (a
  // save changes what the server holds, and so the body the values make).
  const resolver = bodyResolver<V>(loadSchema, options);
  return useForm<V>(engineOptions<V>(options.defaultValues, resolver));
}

/**
 * useFormSubmit for a body form: sends the body through the typed call, and puts a refusal's
 * `inputError` (a body path) on the field `fieldOf` names, else in FORM_ERROR; other failures go
 * to `onError`.
 */
export function useBodySubmit<V extends FieldValues, K extends TWriteCall>(
  form: UseFormReturn<V>,
  options: Omit<TSubmitOptions<K>, 'fields' | 'fieldOf'> & {
    fieldOf: (path: string, values: V) => string | undefined;
  },
) {
  // The submit hook names fields by string path; this form's paths are V's.
  const setError: UseFormReturn<TFormValues>['setError'] = (name, error, options) =>
    form.setError(name as Path<V>, error, options);
  return useFormSubmit(
    { setError },
    {
      ...options,
      fields: {},
      fieldOf: (path) => options.fieldOf(path, form.getValues()) ?? FORM_ERROR,
    },
  );
}
