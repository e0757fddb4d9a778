import { API_KEY_SCOPES, ZCreateApiKey } from './schemas/api-key';
import { ZCreateAiEndpoint } from './schemas/aiendpoint';
import { ZSignUp } from './schemas/account';
import { ZPasswordResetRequest } from './schemas/auth';
import { ZItemInput } from './schemas/item';
import { ZSupportMail } from './schemas/support';

/*
 * One table of form inputs, run by two tests: the console's form validation
 * (apps/web/src/components/form/rule-set.test.ts) and the server's routes
 * (apps/server/test/rule-set.test.ts). Each case changes one field of a valid body; both must
 * give the same verdict and, when refused, the same field and message key. A rule that drifts on
 * either side fails one of them. Imported by tests only.
 */

export interface TValidationCase {
  name: string;
  /** The request schema the console's form validates with. */
  schema: { safeParse(data: unknown): unknown };
  method: 'POST';
  url: string;
  /** Needs a signed-in owner (the server test signs one in). */
  signedIn: boolean;
  /** The body exactly as the form sends it. */
  body: Record<string, unknown>;
  /**
   * null: accepted (2xx). Otherwise the refused field (its full path, the server's `inputError`;
   * the console shows it on the top-level field), its message key and the key's parameters.
   */
  refused: null | { field: string; key: string; params?: Record<string, string | number> };
}

const NUL = '\u0000';

function signUp(
  name: string,
  change: Record<string, unknown>,
  refused: TValidationCase['refused'],
): TValidationCase {
  const email = `rule-set-${name.replace(/\W+/g, '-')}@example.test`;
  return {
    name: `sign-up: ${name}`,
    schema: ZSignUp,
    method: 'POST',
    url: '/api/account',
    signedIn: false,
    body: { name: 'Ada Lovelace', email, password: 'Correct-horse-1', confirm_password: '', ...change },
    refused,
  };
}

let endpoints = 0;
function endpoint(
  name: string,
  change: Record<string, unknown>,
  refused: TValidationCase['refused'],
): TValidationCase {
  endpoints += 1;
  return {
    name: `endpoint create: ${name}`,
    schema: ZCreateAiEndpoint,
    method: 'POST',
    url: '/api/aiendpoint',
    signedIn: true,
    body: {
      route_name: `rules/case-${endpoints}`,
      // A public address literal: accepted without a DNS look-up.
      route_endpoint: 'https://93.184.216.34/v1/chat/completions',
      route_type: 'agent',
      name: 'Rule set case',
      isShared: false,
      isPrivate: true,
      ...change,
    },
    refused,
  };
}

function apiKey(
  name: string,
  change: Record<string, unknown>,
  refused: TValidationCase['refused'],
): TValidationCase {
  return {
    name: `API key create: ${name}`,
    schema: ZCreateApiKey,
    method: 'POST',
    url: '/api/key',
    signedIn: true,
    body: { name: 'CI key', scope: [API_KEY_SCOPES[0]], ...change },
    refused,
  };
}

export const VALIDATION_CASES: TValidationCase[] = [
  signUp('valid', {}, null),
  signUp('empty name', { name: '' }, { field: 'name', key: 'validation.name_required' }),
  signUp('blank name', { name: '   ' }, { field: 'name', key: 'validation.name_required' }),
  signUp(
    'name over 100',
    { name: 'a'.repeat(101) },
    { field: 'name', key: 'validation.too_long', params: { maximum: 100 } },
  ),
  signUp('NUL in name', { name: `Ada${NUL}` }, { field: 'name', key: 'validation.nul_character' }),
  signUp(
    'lone surrogate in name',
    { name: 'Ada\ud800' },
    { field: 'name', key: 'validation.lone_surrogate' },
  ),
  signUp('emoji (a surrogate pair) in name', { name: 'Ada \ud83d\ude00' }, null),
  signUp('empty email', { email: '' }, { field: 'email', key: 'validation.email_required' }),
  signUp('malformed email', { email: 'ada@' }, { field: 'email', key: 'validation.invalid_email' }),
  signUp(
    'short password',
    { password: 'Ab-1' },
    { field: 'password', key: 'validation.password_min_length' },
  ),
  signUp(
    'password without punctuation',
    { password: 'Correcthorse1' },
    { field: 'password', key: 'validation.password_complex' },
  ),

  {
    name: 'reset request: valid',
    schema: ZPasswordResetRequest,
    method: 'POST',
    url: '/api/auth/password/reset/request',
    signedIn: false,
    body: { email: 'nobody@example.test' },
    refused: null,
  },
  {
    name: 'reset request: address over 254',
    schema: ZPasswordResetRequest,
    method: 'POST',
    url: '/api/auth/password/reset/request',
    signedIn: false,
    body: { email: `${'a'.repeat(250)}@b.co` },
    refused: { field: 'email', key: 'validation.too_long', params: { maximum: 254 } },
  },

  endpoint('valid https', {}, null),
  endpoint('valid http with port', { route_endpoint: 'http://93.184.216.34:8080/v1' }, null),
  // The spec's generic URL pattern accepts ftp and smtp; the gateway speaks only HTTP.
  endpoint(
    'ftp upstream',
    { route_endpoint: 'ftp://files.example.com/model' },
    { field: 'route_endpoint', key: 'validation.route_endpoint_url' },
  ),
  endpoint(
    'smtp upstream',
    { route_endpoint: 'smtp://mail.example.com' },
    { field: 'route_endpoint', key: 'validation.route_endpoint_url' },
  ),
  endpoint(
    'no scheme',
    { route_endpoint: 'api.example.com/v1' },
    { field: 'route_endpoint', key: 'validation.route_endpoint_url' },
  ),
  endpoint(
    'credentials in the URL',
    { route_endpoint: 'https://user:secret@example.com/v1' },
    { field: 'route_endpoint', key: 'validation.route_endpoint_credentials' },
  ),
  endpoint(
    'URL over 2048',
    { route_endpoint: `https://example.com/${'a'.repeat(2048)}` },
    { field: 'route_endpoint', key: 'validation.too_long', params: { maximum: 2048 } },
  ),
  endpoint('empty URL', { route_endpoint: '' }, { field: 'route_endpoint', key: 'validation.required' }),
  endpoint(
    'route name not provider/name',
    { route_name: 'Not A Route' },
    { field: 'route_name', key: 'validation.route_name_format' },
  ),
  endpoint(
    'NUL in route name',
    { route_name: `acme/mo${NUL}del` },
    { field: 'route_name', key: 'validation.nul_character' },
  ),
  endpoint(
    'control character in a model id',
    { model_id: 'meta/llama\u0007' },
    { field: 'model_id', key: 'validation.model_id_format' },
  ),
  endpoint(
    'lone surrogate in a description',
    { config: { description: 'about \udc00' } },
    { field: 'config.description', key: 'validation.lone_surrogate' },
  ),
  endpoint(
    'upstream header name with a space',
    { config: { headers: { 'bad name': 'x' } } },
    { field: 'config.headers.bad name', key: 'validation.header_name' },
  ),
  endpoint(
    'line break in an upstream header value',
    { config: { headers: { 'x-key': 'a\r\nb' } } },
    { field: 'config.headers.x-key', key: 'validation.header_value', params: { name: 'x-key' } },
  ),
  endpoint(
    'upstream header value outside Latin-1 (the HTTP client could not send it)',
    { config: { headers: { Authorization: 'Bearer sk-\u20ac' } } },
    {
      field: 'config.headers.Authorization',
      key: 'validation.header_value',
      params: { name: 'Authorization' },
    },
  ),
  endpoint(
    'control character in an upstream header value',
    { config: { headers: { 'x-key': 'a\u0007b' } } },
    { field: 'config.headers.x-key', key: 'validation.header_value', params: { name: 'x-key' } },
  ),
  endpoint(
    'upstream header value with a trailing space',
    { config: { headers: { 'x-key': 'abc ' } } },
    { field: 'config.headers.x-key', key: 'validation.header_value', params: { name: 'x-key' } },
  ),
  endpoint(
    'upstream header value with a tab inside and Latin-1 letters',
    { config: { headers: { 'x-key': 'caf\u00e9\tbar baz' } } },
    null,
  ),
  endpoint(
    'unknown route type',
    { route_type: 'robot' },
    { field: 'route_type', key: 'validation.invalid_option' },
  ),

  apiKey('valid', {}, null),
  apiKey('empty name', { name: '' }, { field: 'name', key: 'validation.key_name_required' }),
  apiKey('no scope', { scope: [] }, { field: 'scope', key: 'validation.key_scope_required' }),
  apiKey(
    'name over 100',
    { name: 'k'.repeat(101) },
    { field: 'name', key: 'validation.too_long', params: { maximum: 100 } },
  ),

  {
    name: 'item create: empty name',
    schema: ZItemInput,
    method: 'POST',
    url: '/api/newitem',
    signedIn: true,
    body: { name: '' },
    refused: { field: 'name', key: 'validation.required' },
  },
  {
    name: 'item create: name over 200',
    schema: ZItemInput,
    method: 'POST',
    url: '/api/newitem',
    signedIn: true,
    body: { name: 'n'.repeat(201) },
    refused: { field: 'name', key: 'validation.too_long', params: { maximum: 200 } },
  },

  {
    name: 'support: empty message',
    schema: ZSupportMail,
    method: 'POST',
    url: '/api/utility/mail',
    signedIn: true,
    body: { name: 'Ada', email: 'ada@example.test', template: 'help', message: '  ' },
    refused: { field: 'message', key: 'validation.support_message_required' },
  },
  {
    name: 'support: empty email',
    schema: ZSupportMail,
    method: 'POST',
    url: '/api/utility/mail',
    signedIn: true,
    body: { name: 'Ada', email: '', template: 'help', message: 'Hello' },
    refused: { field: 'email', key: 'validation.email_required' },
  },
];
