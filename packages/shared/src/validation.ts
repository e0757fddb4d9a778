/*
 * The one rule set (issue 8, item 2). Every field rule lives in a request schema of
 * `packages/shared/src/schemas`; the server validates bodies with it and the console's forms run
 * the same schema (`safeParse`) before sending. What is left here is what both sides need around
 * those schemas: the patterns the schemas use, the stored-text rule (no NUL, no lone surrogate) the
 * server applies to every body, and `describeIssue`, which turns a zod issue into a message KEY plus parameters the same
 * way on both sides. The texts live in the locale catalogs (server `i18n` and registered module
 * messages; console `locales/<lng>/form.json` under `validation`), and a server test keeps the two
 * catalogs word for word equal. Nothing here imports zod, so the sign-in route can describe issues
 * without carrying it (the zod building blocks are in schemas/fields.ts).
 */

// ---------------------------------------------------------------------------------------------
// Patterns used by the schemas
// ---------------------------------------------------------------------------------------------

/** An address with a local part, an @ and a dotted domain; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[^\s@.]{2,}$/;
/** The "special punctuation" a complex password needs at least one of (ASCII punctuation). */
export const SPECIAL_CHARACTER_PATTERN = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;

/** New passwords are at least this long (the spec asks only for complexity; the server adds this). */
export const PASSWORD_MIN_LENGTH = 8;
/** One-time codes (2FA) are exactly this long. */
export const OTP_LENGTH = 6;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
/** "Complex" per the spec: at least one special punctuation character. */
export function isComplexPassword(value: string): boolean {
  return SPECIAL_CHARACTER_PATTERN.test(value);
}

/**
 * Why a URL cannot be an endpoint's upstream, as a message key, or null when it can: it must be
 * an absolute http:// or https:// URL with a host and without credentials. The spec's generic URL
 * pattern (which accepts ftp and smtp) does not apply: the gateway only speaks HTTP. Private
 * addresses and DNS are the server's own further check (they depend on its configuration).
 */
export function upstreamUrlProblem(
  raw: string,
): 'validation.route_endpoint_url' | 'validation.route_endpoint_credentials' | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'validation.route_endpoint_url';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    return 'validation.route_endpoint_url';
  }
  if (url.username || url.password) return 'validation.route_endpoint_credentials';
  return null;
}

/** Why a text cannot be stored, as a message key. */
export type TBadTextKey = 'validation.nul_character' | 'validation.lone_surrogate';

/** A UTF-16 surrogate without its pair: not Unicode text, and PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Whether a text can be stored: U+0000 (PostgreSQL refuses it in text) and a lone UTF-16
 * surrogate (`"\ud800"` in JSON: not Unicode, refused in jsonb) cannot. Null when it can.
 */
export function badTextKey(text: string): TBadTextKey | null {
  if (text.includes('\0')) return 'validation.nul_character';
  if (LONE_SURROGATE.test(text)) return 'validation.lone_surrogate';
  return null;
}

/**
 * The first string or key of a value that cannot be stored (`badTextKey`), with its dotted path
 * (`metadata.note`, `items.2.name`), or null. The server refuses it in every body and query (a
 * 400 on that field, at the JSON body parser) and the console in every form field: one rule.
 */
export function findBadText(value: unknown, path: string[] = []): { field: string; key: TBadTextKey } | null {
  if (typeof value === 'string') {
    const key = badTextKey(value);
    return key ? { field: path.join('.') || 'body', key } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value as object);
  for (const [index, item] of entries) {
    const name = String(index);
    const key = badTextKey(name);
    if (key)
      return { field: [...path, name.replaceAll('\0', '').replace(LONE_SURROGATES, '')].join('.'), key };
    const found = findBadText(item, [...path, name]);
    if (found !== null) return found;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Issue → message key
// ---------------------------------------------------------------------------------------------

/**
 * A zod issue as both sides see it: zod's own issue (console), or the same fields as
 * fastify-type-provider-zod hands them to the error handler (`keyword` = code, `params` = the
 * rest). Only plain data, so this module needs no zod at run time.
 */
export interface TIssueLike {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  format?: unknown;
  expected?: unknown;
  keys?: unknown;
  /** invalid_key, invalid_element: the issues of the key's or element's own schema. */
  issues?: unknown;
  /** custom: the message key's parameters (`{ emails }`), given by the schema with its key. */
  params?: unknown;
}

export interface TIssueMessage {
  /** The dotted path of the field (`route_name`, `config.timeout_ms`); '' for the body itself. */
  field: string;
  /** A message key of the `validation.*` catalogs (server and console). */
  key: string;
  /** Placeholders besides `field` (which each side fills with its own label). */
  params: Record<string, string | number>;
}

/** A schema's own message is a key of the catalogs when it starts with this. */
const KEY_PREFIX = 'validation.';

/** A custom issue's parameters for its message: the string and number ones only. */
function keyParams(params: unknown): Record<string, string | number> {
  if (params === null || typeof params !== 'object') return {};
  return Object.fromEntries(
    Object.entries(params).filter(([, value]) => typeof value === 'string' || typeof value === 'number'),
  ) as Record<string, string | number>;
}

/**
 * The message key and parameters for one zod issue: the schema's own key when it gave one
 * (`{ error: 'validation.key_name_required' }`), else a generic key by issue code. The server's
 * error handler and the console's forms both call this, so they always name the same message.
 */
export function describeIssue(issue: TIssueLike): TIssueMessage {
  let field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys) && issue.keys.length > 0) {
    field = [field, String(issue.keys[0])].filter(Boolean).join('.');
    return { field, key: 'validation.unknown_field', params: {} };
  }
  const done = (key: string, params: Record<string, string | number> = {}) => ({ field, key, params });
  if (issue.message?.startsWith(KEY_PREFIX)) return done(issue.message, keyParams(issue.params));
  // A record key (an upstream header name) refused by its own schema: that schema's key.
  const nested = Array.isArray(issue.issues) ? (issue.issues[0] as TIssueLike | undefined) : undefined;
  if (nested?.message?.startsWith(KEY_PREFIX)) return done(nested.message);
  const missing = /received (undefined|null)/.test(issue.message ?? '');
  if (!field && issue.code === 'invalid_type') {
    return done(missing ? 'validation.body_required' : 'validation.body_object');
  }
  const origin = String(issue.origin ?? '');
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return done('validation.required');
      if (issue.expected === 'number' || issue.expected === 'int') return done('validation.not_a_number');
      return done('validation.invalid');
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (origin === 'string')
        return minimum <= 1 ? done('validation.required') : done('validation.too_short', { minimum });
      if (origin === 'array' || origin === 'set') return done('validation.too_few', { minimum });
      return done('validation.too_small', { minimum });
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (origin === 'string') return done('validation.too_long', { maximum });
      if (origin === 'array' || origin === 'set') return done('validation.too_many', { maximum });
      return done('validation.too_big', { maximum });
    }
    case 'invalid_format':
      if (issue.format === 'email') return done('validation.invalid_email');
      if (issue.format === 'url') return done('validation.invalid_url');
      return done('validation.invalid_format');
    case 'invalid_value':
      return done('validation.invalid_option');
    default:
      return done('validation.invalid');
  }
}

/**
 * A schema-level zod `error` for a missing (or mistyped) value only: `z.string({ error: key })`
 * would also replace the message of every later check (a name over 100 characters would read
 * "Please enter your name"). Returning undefined leaves other issues their own message.
 */
export function missingError(key: string): (issue: { code: string }) => string | undefined {
  return (issue) => (issue.code === 'invalid_type' ? key : undefined);
}
