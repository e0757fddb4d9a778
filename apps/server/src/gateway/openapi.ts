import { z } from 'zod';
import {
  ZGatewayAnswer,
  ZGatewayError,
  ZGatewayRequest,
  ZCountTokensAnswer,
  ZCountTokensRequest,
  ZMessagesAnswer,
  ZMessagesError,
  ZMessagesRequest,
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

/** The same statuses as the OpenAI surface's, each in Anthropic's error shape. */
const messagesErrors = Object.fromEntries(
  Object.entries(errorResponses).map(([status, schema]) => [
    status,
    ZMessagesError.describe(schema.description ?? ''),
  ]),
);

/** `POST /api/v1/messages` (Anthropic clients, contract 6c). */
export const messagesOpenApi = documentedAs({
  tags: ['gateway'],
  operationId: 'createMessage',
  summary: 'Call a route of the registry: an Anthropic message (Messages API)',
  description:
    "The `anthropic-version` and `anthropic-beta` headers are optional here. An Anthropic-format upstream gets the caller's in place of the endpoint's (the body is written for that version); without them, the endpoint's version or 2023-06-01. Other formats get neither. Answers carry no `anthropic-version`.",
  security,
  body: ZMessagesRequest,
  response: { 200: ZMessagesAnswer, ...messagesErrors },
});

/** `POST /api/v1/messages/count_tokens`. */
export const countTokensOpenApi = documentedAs({
  tags: ['gateway'],
  operationId: 'countMessageTokens',
  summary: "An Anthropic request's prompt tokens, counted by the gateway's tokenizer (not forwarded)",
  security,
  body: ZCountTokensRequest,
  response: {
    200: ZCountTokensAnswer,
    400: ZMessagesError,
    401: ZMessagesError,
    403: ZMessagesError,
    404: ZMessagesError,
  },
});

export const invokeOpenApi: TSwaggerTransform = (input) =>
  documentedAs({ ...invokeDocs, ...operationAt(input.url) })(input);
export const modelOpenApi: TSwaggerTransform = (input) =>
  documentedAs({ ...modelDocs, ...operationAt(input.url) })(input);

/** A Model Context Protocol message (JSON-RPC 2.0), or a batch of them, as the MCP server answers it. */
const ZMcpMessage = z
  .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
  .describe('A JSON-RPC 2.0 message of the Model Context Protocol (Streamable HTTP), or a batch');

const mcpDocs = {
  tags: ['gateway'],
  security,
  params: z.object({ provider: z.string(), name: z.string() }),
  headers: z.object({
    'mcp-session-id': z
      .string()
      .optional()
      .describe('The session AIR gave the client (sealed: any instance continues it)'),
  }),
};

/** The MCP proxy's three methods (contract 6d, mcp-proxy.ts): one operation each. */
export const mcpOpenApi: Record<'POST' | 'GET' | 'DELETE', TSwaggerTransform> = {
  POST: documentedAs({
    ...mcpDocs,
    operationId: 'sendMcpMessage',
    summary:
      'Send a message to an MCP endpoint (Streamable HTTP): a JSON answer or an event stream; a tools/call is a metered call',
    body: ZMcpMessage,
    response: {
      200: ZMcpMessage,
      202: z.null().describe('A notification or a response was accepted'),
      ...errorResponses,
    },
  }),
  GET: documentedAs({
    ...mcpDocs,
    operationId: 'openMcpStream',
    summary: "Open the MCP server's event stream of a session (text/event-stream)",
    response: { 200: z.string().describe('text/event-stream of JSON-RPC messages'), ...errorResponses },
  }),
  DELETE: documentedAs({
    ...mcpDocs,
    operationId: 'endMcpSession',
    summary: 'End an MCP session at the server',
    response: { 200: z.null().describe('The session ended'), ...errorResponses },
  }),
};

/** AIR's one MCP address, `/api/mcp` (contract 6d, mcp-aggregate.ts): every tool the key may call. */
export const mcpAggregateOpenApi: Record<'POST' | 'GET', TSwaggerTransform> = {
  POST: documentedAs({
    tags: ['gateway'],
    security,
    operationId: 'sendAggregatedMcpMessage',
    summary:
      'Send a message to AIR\u2019s own MCP server: every tool of the MCP routes the key may call, named route__tool; a tools/call is a metered call on its route',
    body: ZMcpMessage,
    response: {
      200: ZMcpMessage,
      202: z.null().describe('A notification or a response was accepted'),
      ...errorResponses,
    },
  }),
  GET: documentedAs({
    tags: ['gateway'],
    security,
    operationId: 'openAggregatedMcpStream',
    summary:
      'Open AIR\u2019s MCP event stream (text/event-stream): notifications/tools/list_changed when the tools the key may see may have changed',
    response: { 200: z.string().describe('text/event-stream of JSON-RPC notifications'), ...errorResponses },
  }),
};
