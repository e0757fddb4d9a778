import {
  createFormControl,
  type DefaultValues,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
} from 'react-hook-form';
import type { TIssueMessage } from '@air/shared/validation';
import { fieldErrors } from './schema-validation';
import { activeFields, type TFormFields, type TFormValues, type TSchemaLike } from './types';

export { runSubmit } from './submit';

/**
 * A field's error as react-hook-form holds it: a schema issue (`type: 'schema'`, the message key
 * in `message` and its parameters beside it), translated when shown so a language switch applies
 * to it; or a server message attached to the field (`type: 'server'`), shown as it is.
 */
export type TFieldError = FieldError & { params?: TIssueMessage['params'] };

/**
 * The rules as react-hook-form's resolver: the shared NUL rule and the request schema, through
 * `describeIssue`, the function the server's error handler uses (decision 018). `fieldsNow` is
 * read at each run: a form may add a field while it lives (the plan checkout's card).
 */
export function schemaResolver(
  fieldsNow: () => TFormFields,
  loadSchema: () => Promise<TSchemaLike>,
): Resolver<TFormValues> {
  return async (values) => {
    const schema = await loadSchema();
    const fields = fieldsNow();
    const found = fieldErrors(schema, fields, values);
    const errors: FieldErrors<TFormValues> = {};
    for (const [name, field] of activeFields(fields)) {
      const issue = found[name];
      // A hidden field's error does not stop the submit: it is not the user's to fix, so the
      // server's answer (which names the same rule) reaches the error handler as a notification.
      if (!issue || field.type === 'hidden') continue;
      errors[name] = { type: 'schema', message: issue.key, params: issue.params } as TFieldError;
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/**
 * The one engine's options (spec section 4): a field validates on blur; after the first submit,
 * every change re-validates; the request schema decides. Focus stays where the user put it.
 */
export function engineOptions<V extends FieldValues = TFormValues>(
  defaultValues: DefaultValues<V>,
  resolver: Resolver<V>,
): UseFormProps<V> {
  return { defaultValues, mode: 'onBlur', reValidateMode: 'onChange', resolver, shouldFocusError: false };
}

/**
 * The engine for a form that renders before react-hook-form has loaded (the sign-in family, see
 * AuthForm): the same options and resolver, as a form control made outside React, started with
 * the values already typed into the page's inputs.
 */
export function createEngine(
  fields: TFormFields,
  defaultValues: TFormValues,
  loadSchema: () => Promise<TSchemaLike>,
) {
  return createFormControl<TFormValues>(
    engineOptions(
      defaultValues,
      schemaResolver(() => fields, loadSchema),
    ),
  );
}
export type TEngine = ReturnType<typeof createEngine>;
