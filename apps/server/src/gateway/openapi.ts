import { z } from 'zod';
import {
  ZGatewayAnswer,
  ZGatewayError,
  ZGatewayRequest,
  ZModel,
  ZModelList,
} from '@air/shared/schemas/gateway';
import { documentedAs, type TSwaggerTransform } from '../core/openapi';
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
  security,
  headers: z.object({
    'x-route-name': z.string().optional().describe('The route to call; else the body\'s "model"'),
  }),
  body: ZGatewayRequest,
  response: { 200: ZGatewayAnswer, ...errorResponses },
};

const modelsDocs = {
  tags: ['gateway'],
  operationId: 'listModels',
  summary: 'The active routes this key may call, as an OpenAI model list',
  security,
  response: { 200: ZModelList, 401: ZGatewayError, 403: ZGatewayError, 500: ZGatewayError },
};

const modelDocs = {
  tags: ['gateway'],
  security,
  response: { 200: ZModel, 401: ZGatewayError, 403: ZGatewayError, 404: ZGatewayError, 500: ZGatewayError },
};

// The gateway validates nothing through Fastify (the body is raw bytes, forwarded unchanged, and
// answers are written on the raw response): these schemas reach the OpenAPI document only.
export const modelsOpenApi = documentedAs(modelsDocs);

/**
 * One operation per path, though one handler serves several: the operationIds are OpenAI's own
 * (`createChatCompletion`, ...) so a generated client reads like the OpenAI SDK.
 */
const OPERATIONS: Record<string, { operationId: string; summary: string }> = {
  '/api/v1': {
    operationId: 'invoke',
    summary: 'Call a route of the registry: a chat completion (OpenAI-compatible)',
  },
  '/api/v1/chat/completions': {
    operationId: 'createChatCompletion',
    summary: 'Call a route of the registry: a chat completion (OpenAI-compatible)',
  },
  '/api/v1/completions': {
    operationId: 'createCompletion',
    summary: 'Call a route of the registry: a text completion (OpenAI-compatible)',
  },
  '/api/v1/responses': {
    operationId: 'createResponse',
    summary: 'Call a route of the registry: a response (OpenAI Responses API)',
  },
  '/api/v1/embeddings': {
    operationId: 'createEmbedding',
    summary: 'Call a route of the registry: embeddings (OpenAI-compatible)',
  },
  '/api/v1/models/:id': {
    operationId: 'retrieveModel',
    summary: 'One route this key may call, as an OpenAI model (`{provider}/{name}` with its slash as %2F)',
  },
  '/api/v1/models/:provider/:name': {
    operationId: 'retrieveModelByName',
    summary: 'One route this key may call, as an OpenAI model (`{provider}/{name}` with its slash as is)',
  },
};

/** Its path's operation: a gateway path without one is a mistake found when the document is built. */
function operationAt(url: string) {
  const operation = OPERATIONS[url];
  if (!operation) throw new Error(`gateway/openapi.ts names no operation for ${url}`);
  return operation;
}

export const invokeOpenApi: TSwaggerTransform = (input) =>
  documentedAs({ ...invokeDocs, ...operationAt(input.url) })(input);
export const modelOpenApi: TSwaggerTransform = (input) =>
  documentedAs({ ...modelDocs, ...operationAt(input.url) })(input);
