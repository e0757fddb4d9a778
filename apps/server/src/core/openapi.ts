import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { CONSOLE_API } from '@air/shared/api';
import { errorStatusesOf } from '@air/shared/api-call';
import { ERRORS } from '@air/shared/errors';
import { ZErrorBody } from '@air/shared/schemas/common';
import type { TConfig } from '../config';
import { mergeClashingPaths } from './openapi-paths';

type TTransformInput = Parameters<typeof jsonSchemaTransform>[0];
/** A route's own swagger transform (`config.swaggerTransform`), the function form. */
export type TSwaggerTransform = Extract<
  NonNullable<FastifyContextConfig['swaggerTransform']>,
  (...args: never[]) => unknown
>;

/**
 * For a route whose schemas must not run on its requests (the gateway forwards raw bytes; the
 * social sign-in routes redirect on any input; /metrics writes text): the schema is given to the
 * OpenAPI document only, through the route's own swagger transform (`config.swaggerTransform`).
 */
export function documentedAs(schema: FastifySchema & Record<string, unknown>): TSwaggerTransform {
  return (input) => jsonSchemaTransform({ ...input, schema } as TTransformInput);
}

/** One error answer of the document: the error body, described by the codes of its status. */
function errorAnswer(status: number) {
  const codes = Object.entries(ERRORS)
    .filter(([, error]) => error.status === status)
    .map(([code]) => code);
  return ZErrorBody.describe(`Refused (code ${codes.join(', ')})`);
}

/**
 * Every console API error is `{ code, message, inputError? }` (core/error-handler.ts). It is added
 * to the document only, not to the routes: a route's own type then stays its success answer
 * alone. A call of the table lists the statuses its entry gives (api-call.ts `errorStatusesOf`);
 * a route outside it, `4XX`.
 */
function withErrorAnswers(input: TTransformInput) {
  const schema = input.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
  if (!schema?.response || schema.hide) return jsonSchemaTransform(input);
  const call = (input.route.config as FastifyContextConfig | undefined)?.call;
  const errors = call
    ? Object.fromEntries(
        errorStatusesOf(call, CONSOLE_API[call]).map((status) => [status, errorAnswer(status)]),
      )
    : { '4XX': ZErrorBody };
  const response = { ...schema.response, ...errors, '5XX': ZErrorBody };
  return jsonSchemaTransform({ ...input, schema: { ...schema, response } } as TTransformInput);
}

/**
 * OpenAPI built from the same zod schemas that validate requests and serialise answers. Must be
 * registered before any route so every route is collected. UI at /api/docs, JSON at /api/docs/json.
 */
export async function registerOpenApi(app: FastifyInstance, config: TConfig) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'AIR API', description: 'AIR: the AI endpoint registry and gateway', version: '1.0.0' },
      servers: [{ url: config.appUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Session token or API key (air_…)' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key (air_…)' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: withErrorAnswers,
    transformObject: (document) =>
      'openapiObject' in document ? mergeClashingPaths(document.openapiObject) : document.swaggerObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: false,
    uiConfig: { validatorUrl: null },
  });
}
