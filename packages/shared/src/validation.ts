import { z } from 'zod';

/*
 * Field validation shared by the console's generic form and the server's schemas (spec section 5).
 * Rules return message KEYS plus interpolation params, never text: the console translates them
 * (namespace `form`, keys below) and the server can render the English catalogue exported here.
 */

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

/** An address with a local part, an @ and a dotted domain; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[^\s@.]{2,}$/;
/** Optional minus, digits, optional decimal part. */
export const NUMBER_PATTERN = /^-?\d+(?:\.\d+)?$/;
/** Optional plus, then 7 to 15 digits; a single space may separate any two digits. */
export const PHONE_PATTERN = /^\+?\d(?: ?\d){6,14}$/;
/**
 * Optional scheme (http, https, ftp, smtp), optional www, a domain, optional port, optional path or
 * query. `localhost` and dotted IPv4 addresses count as domains so that local upstreams can be
 * registered during development (the server decides whether private addresses are allowed).
 */
export const URL_PATTERN =
  /^(?:(?:https?|ftp|smtp):\/\/)?(?:www\.)?(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}|localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?:[/?#]\S*)?$/i;
/** The "special punctuation" a complex password needs at least one of (ASCII punctuation). */
export const SPECIAL_CHARACTER_PATTERN = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
/** YYYY-MM-DD as the date input emits. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The server's extra rule for passwords (the console only asks for complexity). */
export const PASSWORD_MIN_LENGTH = 8;
/** One-time codes (2FA) are exactly this long. */
export const OTP_LENGTH = 6;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
export function isNumber(value: string): boolean {
  return NUMBER_PATTERN.test(value);
}
export function isPhone(value: string): boolean {
  return PHONE_PATTERN.test(value);
}
export function isUrl(value: string): boolean {
  return URL_PATTERN.test(value);
}
/** "Complex" per the spec: at least one special punctuation character. */
export function isComplexPassword(value: string): boolean {
  return SPECIAL_CHARACTER_PATTERN.test(value);
}
export function isIsoDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/**
 * Every validation message: key → English text with i18next-style `{{param}}` placeholders.
 * The console's `locales/<lng>/form.json` holds the same keys (a test keeps them in step).
 */
export const VALIDATION_MESSAGES_EN = {
  'form.required': '{{label}} is required',
  'form.number.min': 'Please enter a value of at least {{min}}',
  'form.number.max': 'Please enter a value of at most {{max}}',
  'form.number.between': 'Please enter a value between {{min}} and {{max}}',
  'form.minLength': '{{label}} must be at least {{minLength}} characters',
  'form.maxLength': '{{label}} must be no more than {{maxLength}} characters',
  'form.number.error.invalid': 'Please enter a valid number',
  'form.email.error.invalid': 'Please enter a valid email address',
  'form.url.error.invalid': 'Please enter a valid URL',
  'form.phone.error.invalid': 'Please enter a valid phone number',
  'form.date.error.invalid': 'Please enter a valid date',
  'form.otp.error.invalid': 'Please enter the 6-character code',
  'form.select.error.invalid': 'Please choose one of the options',
  'form.text.error.invalid': '{{label}} is not valid',
  'form.file.required': 'Please select a file',
  'form.file.excluded': '{{type}} files are not allowed',
  'form.checkbox.min': 'Please select at least {{min}} options',
  'form.checkbox.max': 'Please select no more than {{max}} options',
  'form.password.complex': 'Password must contain at least one special character',
  'form.password.minLength': 'Password must be at least {{minLength}} characters',
  // The spec's literal per-field messages (section 5), for errorMessage overrides and the server.
  'form.messages.name': 'Please enter your name',
  'form.messages.email': 'Please enter your email address',
  'form.messages.keyName': 'Please provide a descriptive name for your key',
  'form.messages.scope': 'Please select at least one scope',
  'form.messages.message': 'Please enter a message',
  'form.messages.firstName': 'Please enter your first name',
  'form.messages.closeAccountPassword': 'Please enter your password to confirm your account deletion',
} as const;

export type TValidationKey = keyof typeof VALIDATION_MESSAGES_EN;

/** The spec's literal messages by name, in English (the server answers with these). */
export const FIELD_MESSAGES = {
  nameRequired: VALIDATION_MESSAGES_EN['form.messages.name'],
  emailRequired: VALIDATION_MESSAGES_EN['form.messages.email'],
  keyNameRequired: VALIDATION_MESSAGES_EN['form.messages.keyName'],
  scopeRequired: VALIDATION_MESSAGES_EN['form.messages.scope'],
  messageRequired: VALIDATION_MESSAGES_EN['form.messages.message'],
  firstNameRequired: VALIDATION_MESSAGES_EN['form.messages.firstName'],
  closeAccountPasswordRequired: VALIDATION_MESSAGES_EN['form.messages.closeAccountPassword'],
  passwordComplex: VALIDATION_MESSAGES_EN['form.password.complex'],
} as const;

export interface TValidationError {
  key: TValidationKey;
  params?: Record<string, unknown>;
  /** The field's own `errorMessage`, which replaces the translated text when present. */
  message?: string;
}

/** Fills `{{param}}` placeholders; a missing label reads "Field" (the spec's fallback). */
export function formatValidationMessage(
  template: string,
  params: Record<string, unknown> = {},
  fallbackLabel = 'Field',
): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') return name === 'label' ? fallbackLabel : '';
    return String(value);
  });
}

/** English text of a validation error (the field's errorMessage wins). */
export function validationMessageEn(error: TValidationError): string {
  return error.message ?? formatValidationMessage(VALIDATION_MESSAGES_EN[error.key], error.params);
}

// ---------------------------------------------------------------------------------------------
// The generic field definition and its validation
// ---------------------------------------------------------------------------------------------

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
 * A field's `validation`: `'complexPassword'` for new passwords, or a pattern the whole value must
 * match (a RegExp, or its source as a string so definitions stay serialisable).
 */
export type TFieldValidation = 'complexPassword' | RegExp | string;

/** The part of the generic field definition (spec section 3) that validation reads. */
export interface TFieldRules {
  type: TFieldType | null;
  required?: boolean;
  label?: string;
  errorMessage?: string;
  /** number: smallest value; checkbox set: fewest choices. */
  min?: number;
  /** number: largest value; checkbox set: most choices. */
  max?: number;
  minLength?: number;
  maxLength?: number;
  validation?: TFieldValidation;
  /** file: accepted MIME types (`image/png`, or a family such as `image/*`). */
  accept?: readonly string[] | string;
  options?: readonly TFieldOption[];
}

/** What a file input holds, without depending on the DOM's FileList. */
interface TFileLike {
  name: string;
  type: string;
}

function isFileLike(value: unknown): value is TFileLike {
  return typeof value === 'object' && value !== null && 'name' in value && 'type' in value;
}

/** A FileList, an array of files, or a single file, as an array. */
export function filesOf(value: unknown): TFileLike[] {
  if (value == null) return [];
  if (isFileLike(value)) return [value];
  if (typeof value === 'object' && 'length' in value) {
    return Array.from(value as ArrayLike<unknown>).filter(isFileLike);
  }
  return [];
}

export function acceptList(accept: TFieldRules['accept']): string[] {
  if (!accept) return [];
  const list = typeof accept === 'string' ? accept.split(',') : accept;
  return list.map((a) => a.trim().toLowerCase()).filter(Boolean);
}

/** Whether a MIME type is one of the accepted ones (exact, or a `family/*` wildcard). */
export function isAcceptedType(type: string, accept: TFieldRules['accept']): boolean {
  const list = acceptList(accept);
  if (list.length === 0) return true;
  const mime = type.toLowerCase();
  return list.some((a) => a === mime || (a.endsWith('/*') && mime.startsWith(a.slice(0, -1))));
}

function isEmpty(field: TFieldRules, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (field.type === 'file') return filesOf(value).length === 0;
  // A single checkbox or switch that is required must be on (e.g. accepting terms).
  if (typeof value === 'boolean') return value === false;
  return false;
}

function patternOf(validation: TFieldValidation | undefined): RegExp | null {
  if (validation === undefined || validation === 'complexPassword') return null;
  return typeof validation === 'string' ? new RegExp(validation) : validation;
}

/**
 * Validates one value against its field definition. Returns null when valid, otherwise a message
 * key with params; the field's `errorMessage` rides along as `message` and overrides the text.
 */
export function validateField(field: TFieldRules, value: unknown): TValidationError | null {
  const error = ruleError(field, value);
  if (!error) return null;
  return field.errorMessage ? { ...error, message: field.errorMessage } : error;
}

function ruleError(field: TFieldRules, value: unknown): TValidationError | null {
  const { type } = field;
  // Removed and hidden fields are never the user's to fix (confirm_password is sent hidden, empty).
  if (type === null || type === 'hidden') return null;
  const label = field.label;

  if (isEmpty(field, value)) {
    if (type === 'checkbox' && Array.isArray(value) && field.min !== undefined && field.min > 0) {
      return { key: 'form.checkbox.min', params: { min: field.min, label } };
    }
    if (!field.required) return null;
    if (type === 'file') return { key: 'form.file.required', params: { label } };
    return { key: 'form.required', params: { label } };
  }

  switch (type) {
    case 'checkbox':
      return Array.isArray(value) ? choicesError(field, value) : null;
    case 'switch':
      return null;
    case 'file':
      return fileError(field, value);
    case 'select':
    case 'radio':
      return optionError(field, value);
    case 'card':
      // The card widget reports null when empty and a non-null token placeholder otherwise.
      return null;
    default:
      return textError(field, String(value));
  }
}

function choicesError(field: TFieldRules, values: unknown[]): TValidationError | null {
  if (field.min !== undefined && values.length < field.min) {
    return { key: 'form.checkbox.min', params: { min: field.min, label: field.label } };
  }
  if (field.max !== undefined && values.length > field.max) {
    return { key: 'form.checkbox.max', params: { max: field.max, label: field.label } };
  }
  if (field.options && values.some((v) => !field.options?.some((o) => o.value === v))) {
    return { key: 'form.select.error.invalid', params: { label: field.label } };
  }
  return null;
}

function fileError(field: TFieldRules, value: unknown): TValidationError | null {
  for (const file of filesOf(value)) {
    if (!isAcceptedType(file.type, field.accept)) {
      const subtype = file.type.split('/')[1] || file.name.split('.').pop() || file.type;
      return { key: 'form.file.excluded', params: { type: subtype, label: field.label } };
    }
  }
  return null;
}

function optionError(field: TFieldRules, value: unknown): TValidationError | null {
  if (field.options && !field.options.some((o) => o.value === String(value))) {
    return { key: 'form.select.error.invalid', params: { label: field.label } };
  }
  return null;
}

function textError(field: TFieldRules, value: string): TValidationError | null {
  const label = field.label;
  switch (field.type) {
    case 'email':
      if (!isEmail(value.trim())) return { key: 'form.email.error.invalid', params: { label } };
      break;
    case 'phone':
      if (!isPhone(value.trim())) return { key: 'form.phone.error.invalid', params: { label } };
      break;
    case 'url':
      if (!isUrl(value.trim())) return { key: 'form.url.error.invalid', params: { label } };
      break;
    case 'date':
      if (!isIsoDate(value)) return { key: 'form.date.error.invalid', params: { label } };
      break;
    case 'otp':
      if (value.length !== OTP_LENGTH) return { key: 'form.otp.error.invalid', params: { label } };
      break;
    case 'number': {
      if (!isNumber(value.trim())) return { key: 'form.number.error.invalid', params: { label } };
      const n = Number(value);
      const { min, max } = field;
      const low = min !== undefined && n < min;
      const high = max !== undefined && n > max;
      if ((low || high) && min !== undefined && max !== undefined) {
        return { key: 'form.number.between', params: { min, max, label } };
      }
      if (low) return { key: 'form.number.min', params: { min, label } };
      if (high) return { key: 'form.number.max', params: { max, label } };
      break;
    }
  }

  if (field.minLength !== undefined && value.length < field.minLength) {
    return { key: 'form.minLength', params: { minLength: field.minLength, label } };
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    return { key: 'form.maxLength', params: { maxLength: field.maxLength, label } };
  }
  if (field.validation === 'complexPassword' && !isComplexPassword(value)) {
    return { key: 'form.password.complex', params: { label } };
  }
  const pattern = patternOf(field.validation);
  if (pattern && !pattern.test(value)) {
    const key = `form.${field.type}.error.invalid` as TValidationKey;
    return { key: key in VALIDATION_MESSAGES_EN ? key : 'form.text.error.invalid', params: { label } };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// zod building blocks for request schemas (server and console alike). Each is a pure-annotated
// IIFE (an annotation on a method chain covers only its first call) so a console bundle that uses
// only the plain rules above leaves zod out.
// ---------------------------------------------------------------------------------------------

/** A new password: complex and at least PASSWORD_MIN_LENGTH long. */
export const ZNewPassword = /* @__PURE__ */ (() =>
  z
    .string()
    .min(PASSWORD_MIN_LENGTH, {
      message: formatValidationMessage(VALIDATION_MESSAGES_EN['form.password.minLength'], {
        minLength: PASSWORD_MIN_LENGTH,
      }),
    })
    .max(200)
    .refine(isComplexPassword, { message: FIELD_MESSAGES.passwordComplex }))();

export const ZEmailAddress = /* @__PURE__ */ (() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .refine(isEmail, { message: VALIDATION_MESSAGES_EN['form.email.error.invalid'] }))();

export const ZOtpCode = /* @__PURE__ */ (() =>
  z.string().trim().length(OTP_LENGTH, { message: VALIDATION_MESSAGES_EN['form.otp.error.invalid'] }))();
