import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteShorthandOptions,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { CONSOLE_API, type TAnswerOf, type TConsoleApi, type TConsoleCall } from '@air/shared/api';
import { ZNoQuery, type TCall } from '@air/shared/api-call';
import { CONSOLE_OPERATIONS, type TOperation } from '@air/shared/api-operations';

/** The request body a call's route receives: its table schema's output, once validated. */
type TBodyIn<K extends TConsoleCall> = TConsoleApi[K] extends { body: z.ZodType }
  ? z.output<TConsoleApi[K]['body']>
  : unknown;

/** The path parameters a call's route receives, once validated by its table entry. */
type TParamsIn<K extends TConsoleCall> = TConsoleApi[K] extends { params: z.ZodType }
  ? z.output<TConsoleApi[K]['params']>
  : Record<string, never>;
/** The query a call's route receives, once validated by its table entry (none: an empty object). */
type TQueryIn<K extends TConsoleCall> = TConsoleApi[K] extends { query: z.ZodType }
  ? z.output<TConsoleApi[K]['query']>
  : Record<string, never>;

/**
 * A route's own schema parts: its tags and description. Params, query, body and the success
 * answer are the table's (one place for each), so a route cannot declare them itself.
 */
export interface TRouteSchema extends Omit<FastifySchema, 'body' | 'params' | 'querystring' | 'response'> {
  tags?: string[];
  summary?: string;
  description?: string;
  hide?: boolean;
}

export type TRouteOptions = Omit<RouteShorthandOptions, 'schema'> & { schema?: TRouteSchema };

export type TRouteHandler<K extends TConsoleCall> = (
  request: FastifyRequest<{ Body: TBodyIn<K>; Params: TParamsIn<K>; Querystring: TQueryIn<K> }>,
  reply: FastifyReply,
) => Promise<TAnswerOf<K> | FastifyReply>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call-table name a route was registered from (`route()`). */
    call?: TConsoleCall;
  }
}

/**
 * Registers a console call from the shared call table (`@air/shared/api`, decisions 019 and 051):
 * the method and path come from its name; the path params, query, body and success answer (and
 * its status, set before the handler runs) from its entry, so each is validated (a bad one is a
 * 400 naming it in `inputError`) and documented from there; a call without a query refuses any
 * query parameter. Its operationId and summary come from `CONSOLE_OPERATIONS` beside the table,
 * its error answers in the document from the entry (core/openapi.ts). The route adds its guard
 * and tags; the handler's params, query, body and answer are the table's types. Called inside a
 * module's scope (prefix `/api`): the name's path is taken from that prefix on.
 */
export function route<K extends TConsoleCall>(
  app: FastifyInstance,
  call: K,
  options: TRouteOptions,
  handler: TRouteHandler<K>,
): void {
  const [method, path] = call.split(' ') as [HTTPMethods, string];
  const spec: TCall = CONSOLE_API[call];
  const operation: TOperation = CONSOLE_OPERATIONS[call];
  if (!path.startsWith(`${app.prefix}/`))
    throw new Error(`${call} is not under this scope's prefix ${app.prefix}`);
  const status = spec.status ?? 200;
  const query = spec.query ?? ZNoQuery;
  // Fastify validates the body before the query, so a bad body would hide a parameter the call
  // does not take; the query is checked first (after the route's own guards), as the path is.
  const checkQuery = validatorCompiler({ schema: query, method, url: path, httpPart: 'querystring' });
  const queryFirst = async (request: FastifyRequest) => {
    // The zod compiler answers synchronously, `{ value }` or `{ error }`.
    const result = checkQuery(request.query) as { error?: unknown };
    if (result.error)
      throw Object.assign(new Error('querystring'), {
        statusCode: 400,
        validation: result.error,
        validationContext: 'querystring',
      });
  };
  app.route({
    ...options,
    preValidation: [options.preValidation ?? []].flat().concat(queryFirst),
    method,
    url: path.slice(app.prefix.length),
    // Names the call on the route, so a test can tell a route registered from the table.
    config: { ...options.config, call },
    schema: {
      ...operation,
      ...options.schema,
      ...(spec.params ? { params: spec.params } : {}),
      querystring: query,
      ...(spec.body ? { body: spec.body } : {}),
      response: { [status]: spec.response },
    },
    // The table's schemas validated params, query and body before the handler runs.
    handler:
      status === 200
        ? (request, reply) => (handler as TRouteHandler<TConsoleCall>)(request as never, reply)
        : async (request, reply) => {
            reply.code(status);
            return (handler as TRouteHandler<TConsoleCall>)(request as never, reply);
          },
  });
}
