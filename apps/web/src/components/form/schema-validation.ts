import { describeIssue, findBadText, type TIssueMessage } from '@air/shared/validation';
import { activeFields, type TFormFields, type TFormValues, type TSchemaLike } from './types';

export type TFieldErrors = Record<string, TIssueMessage>;

/**
 * A card widget holds a provider value (or null) until submit turns it into a token. For
 * validation it stands for a well-formed token, so the schema's own card rule (required) applies.
 */
export const CARD_PLACEHOLDER_TOKEN = 'tok_pending';

/** The body the form would send, as the schema reads it (removed fields left out). */
export function payloadOf(fields: TFormFields, values: TFormValues): TFormValues {
  const payload: TFormValues = {};
  for (const [name, field] of activeFields(fields)) {
    const value = values[name];
    if (field.type === 'card') payload[name] = value == null ? undefined : CARD_PLACEHOLDER_TOKEN;
    else payload[name] = field.toValue ? field.toValue(value) : value;
  }
  return payload;
}

/**
 * The first error of each field of a form, as message keys: the shared stored-text rule (the
 * server's body parser refuses U+0000 and lone surrogates in any string), then the schema. The keys and parameters come from
 * `describeIssue`, the function the server's error handler uses, so a value the server refuses is
 * refused here with the same message.
 */
export function fieldErrors(schema: TSchemaLike, fields: TFormFields, values: TFormValues): TFieldErrors {
  const payload = payloadOf(fields, values);
  const errors: TFieldErrors = {};
  for (const name of Object.keys(payload)) {
    const bad = findBadText(payload[name], [name]);
    if (bad !== null) errors[name] = { field: bad.field, key: bad.key, params: {} };
  }
  const result = schema.safeParse(payload);
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const message = describeIssue(issue);
    const name = message.field.split('.')[0] ?? '';
    if (name && !errors[name]) errors[name] = message;
  }
  return errors;
}

/**
 * Whether a field's label carries the required mark: its schema refuses the field's empty value
 * (so the mark and the rule cannot disagree). Only for object schemas; others mark nothing.
 */
export function isRequired(schema: TSchemaLike, name: string, empty: unknown): boolean {
  const shape = (schema as { shape?: Record<string, TSchemaLike> }).shape;
  const field = shape?.[name];
  if (!field) return false;
  return !field.safeParse(empty).success;
}
