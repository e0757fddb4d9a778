import type { TAnswerOf } from '@air/shared/api';
import type { TWriteCall } from '@/lib/api';
import type { TIssueLike } from '@air/shared/validation';

/**
 * What the forms need of a zod schema. Structural, so this module and the sign-in route need zod
 * only when a schema is actually loaded.
 */
export interface TSchemaLike {
  safeParse(data: unknown): { success: true } | { success: false; error: { issues: readonly TIssueLike[] } };
}

/**
 * A form's schema: the shared request schema itself, or a loader for it. The sign-in family passes
 * a loader so zod stays out of the sign-in route's first download (its budget is 150 KB); the
 * loader starts when the form mounts, long before the first blur.
 */
export type TFormSchema = TSchemaLike | (() => Promise<TSchemaLike>);

export const FIELD_TYPES = [
  'text',
  'email',
  'password',
  'number',
  'phone',
  'url',
  'textarea',
  'select',
  'checkbox',
  'radio',
  'switch',
  'date',
  'file',
  'otp',
  'hidden',
  'card',
] as const;
export type TFieldType = (typeof FIELD_TYPES)[number];

export interface TFieldOption {
  value: string;
  label: string;
  group?: string;
}

/**
 * The spec's generic form field definition (section 3), presentation only: forms are maps keyed
 * by field name, and a field whose `type` is null is removed. No rule lives here: the form's
 * `schema` (the request schema from `@air/shared`, the one the server validates with) decides
 * what is valid, which message is shown, and which labels carry the required mark.
 */
export interface TFormField {
  type: TFieldType | null;
  label?: string;
  placeholder?: string;
  description?: string;
  /** Initial value; `defaultValue` is used when `value` is absent. */
  value?: unknown;
  defaultValue?: unknown;
  disabled?: boolean;
  readonly?: boolean;
  /** select, radio, checkbox set: the choices. */
  options?: readonly TFieldOption[];
  /** file: MIME types the picker offers (`image/png`, or a family such as `image/*`). */
  accept?: readonly string[] | string;
  /** otp: allowed characters as a RegExp source, e.g. input-otp's REGEXP_ONLY_DIGITS. */
  pattern?: string;
  /** password: `new-password` lets password managers offer a generated one. */
  autoComplete?: string;
  /**
   * The request body's value for the widget's value, when they differ (a number typed as text
   * becomes a number, an empty one null; a date becomes a date-time). Validation and the request
   * both see the converted value.
   */
  toValue?: (value: unknown) => unknown;
}

export type TFormFields = Record<string, TFormField>;
export type TFormValues = Record<string, unknown>;

/** The path parameters of a form's call (`{ id }` for `PATCH /api/key/:id`). */
export type TFormParams = Record<string, string | readonly string[]>;

export interface TFormProps<K extends TWriteCall = TWriteCall> {
  fields: TFormFields;
  /** The request's shared schema: the form validates with it before sending (one rule set). */
  schema: TFormSchema;
  /** The call of the shared table the form sends (`"PATCH /api/key/:id"`). */
  call: K;
  /** Its path parameters, when it has any. */
  params?: TFormParams;
  /** Submit button text; defaults to the translated "Save". */
  buttonText?: string;
  /** Called after a successful submit with the call's answer and the values sent. */
  onSuccess?: (response: TAnswerOf<K>, values: TFormValues) => void;
  /** Route to navigate to after a successful submit. */
  redirect?: string;
  /** Submit on every change (no submit button). */
  autoSubmit?: boolean;
  /** Shows a Cancel button that calls this. */
  cancel?: () => void;
  /** Focuses the first field when the form mounts (form dialogs). */
  autoFocus?: boolean;
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

/** The values as the request sends them: each field's `toValue` applied. */
export function bodyValues(fields: TFormFields, values: TFormValues): TFormValues {
  const out: TFormValues = { ...values };
  for (const [name, field] of activeFields(fields))
    if (field.toValue) out[name] = field.toValue(values[name]);
  return out;
}

export function initialValues(fields: TFormFields): TFormValues {
  return Object.fromEntries(activeFields(fields).map(([name, field]) => [name, initialValue(field)]));
}
