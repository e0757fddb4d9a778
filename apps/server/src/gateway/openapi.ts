import { z } from 'zod';
import {
  ZGatewayAnswer,
  ZGatewayError,
  ZGatewayRequest,
  ZModel,
  ZModelList,
} from '@air/shared/schemas/gateway';
import { documentedAs } from '../core/openapi';
import { GATEWAY_ERRORS } from './errors';

/** Every status the gateway answers itself, each with the OpenAI error body. */
const errorResponses = Object.fromEntries(
  [...new Set(Object.values(GATEWAY_ERRORS).map((error) => error.status))].sort().map((status) => [
    status,
    ZGatewayError.describe(
      Object.entries(GATEWAY_ERRORS)
        .filter(([, error]) => error.status === status)
        .map(([code]) => code)
        .join(', '),
    ),
  ]),
);

const security: Record<string, string[]>[] = [{ bearer: [] }, { apiKey: [] }];

const invokeDocs = {
  tags: ['gateway'],
  summary: 'Call a route of the registry (OpenAI-compatible)',
  security,
  headers: z.object({
    'x-route-name': z.string().optional().describe('The route to call; else the body\'s "model"'),
  }),
  body: ZGatewayRequest,
  response: { 200: ZGatewayAnswer, ...errorResponses },
};

const modelsDocs = {
  tags: ['gateway'],
  summary: 'The active routes this key may call, as an OpenAI model list',
  security,
  response: { 200: ZModelList, 401: ZGatewayError, 403: ZGatewayError, 500: ZGatewayError },
};

const modelDocs = {
  tags: ['gateway'],
  summary: 'One route this key may call (`{provider}/{name}`, its slash as is or %2F), as an OpenAI model',
  security,
  response: { 200: ZModel, 401: ZGatewayError, 403: ZGatewayError, 404: ZGatewayError, 500: ZGatewayError },
};

// The gateway validates nothing through Fastify (the body is raw bytes, forwarded unchanged, and
// answers are written on the raw response): these schemas reach the OpenAPI document only.
export const invokeOpenApi = documentedAs(invokeDocs);
export const modelsOpenApi = documentedAs(modelsDocs);
export const modelOpenApi = documentedAs(modelDocs);
