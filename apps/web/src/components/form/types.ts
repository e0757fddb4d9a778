import type { TFieldOption, TFieldRules, TFieldType } from '@air/shared/validation';
import type { TApiResponse, THttpMethod } from '@/lib/api';

export type { TFieldOption, TFieldType };

/**
 * The spec's generic form field definition (section 3). Forms are maps keyed by field name; a
 * field whose `type` is null is removed. Validation reads the shared `TFieldRules` part.
 */
export interface TFormField extends TFieldRules {
  placeholder?: string;
  description?: string;
  /** Initial value; `defaultValue` is used when `value` is absent. */
  value?: unknown;
  defaultValue?: unknown;
  disabled?: boolean;
  readonly?: boolean;
  /** otp: allowed characters as a RegExp source, e.g. input-otp's REGEXP_ONLY_DIGITS. */
  pattern?: string;
}

export type TFormFields = Record<string, TFormField>;
export type TFormValues = Record<string, unknown>;

export interface TFormProps {
  fields: TFormFields;
  url: string;
  method: THttpMethod;
  /** Submit button text; defaults to the translated "Save". */
  buttonText?: string;
  /** Called after a successful submit with the response and the values sent. */
  onSuccess?: (response: TApiResponse<unknown>, values: TFormValues) => void;
  /** Route to navigate to after a successful submit. */
  redirect?: string;
  /** Submit on every change (no submit button). */
  autoSubmit?: boolean;
  /** Shows a Cancel button that calls this. */
  cancel?: () => void;
  className?: string;
}

/** Types whose change is a completed choice: they validate at once instead of waiting for blur. */
export const CHOICE_TYPES: ReadonlySet<TFieldType> = new Set<TFieldType>([
  'select',
  'checkbox',
  'radio',
  'switch',
  'date',
  'file',
  'card',
]);

/** Field definitions with removed fields (type null) dropped. */
export function activeFields(fields: TFormFields): [string, TFormField & { type: TFieldType }][] {
  return Object.entries(fields).filter((entry): entry is [string, TFormField & { type: TFieldType }] => {
    return entry[1].type !== null && entry[1].type !== undefined;
  });
}

/** A checkbox with options is a set (array of chosen values); without, a single boolean. */
export function isCheckboxSet(field: TFormField): boolean {
  return field.type === 'checkbox' && Array.isArray(field.options) && field.options.length > 0;
}

export function initialValue(field: TFormField): unknown {
  const given = field.value !== undefined ? field.value : field.defaultValue;
  if (given !== undefined) return given;
  switch (field.type) {
    case 'checkbox':
      return isCheckboxSet(field) ? [] : false;
    case 'switch':
      return false;
    case 'file':
    case 'card':
      return null;
    default:
      return '';
  }
}

export function initialValues(fields: TFormFields): TFormValues {
  return Object.fromEntries(activeFields(fields).map(([name, field]) => [name, initialValue(field)]));
}
