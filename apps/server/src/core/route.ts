import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { CONSOLE_API, type TAnswerOf, type TConsoleApi, type TConsoleCall } from '@air/shared/api';
import { CONSOLE_OPERATIONS, type TOperation } from '@air/shared/api-operations';

/** The request body a call's route receives: its table schema's output, once validated. */
type TBodyIn<K extends TConsoleCall> = TConsoleApi[K] extends { body: z.ZodType }
  ? z.output<TConsoleApi[K]['body']>
  : unknown;

/** A route's own schema parts: everything but the body and the success answer, which the table gives. */
export interface TRouteSchema<P extends z.ZodType, Q extends z.ZodType> extends Omit<
  FastifySchema,
  'body' | 'params' | 'querystring'
> {
  params?: P;
  querystring?: Q;
  tags?: string[];
  summary?: string;
  description?: string;
  hide?: boolean;
}

export type TRouteOptions<P extends z.ZodType, Q extends z.ZodType> = Omit<
  RouteShorthandOptions,
  'schema'
> & {
  schema?: TRouteSchema<P, Q>;
};

export type TRouteHandler<
  K extends TConsoleCall,
  P extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
> = (
  request: FastifyRequest<{ Body: TBodyIn<K>; Params: z.output<P>; Querystring: z.output<Q> }>,
  reply: FastifyReply,
) => Promise<TAnswerOf<K> | FastifyReply>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call-table name a route was registered from (`route()`). */
    call?: TConsoleCall;
  }
}

interface TCallSpec {
  body?: z.ZodType;
  response: z.ZodType;
  status?: number;
}

/**
 * Registers a console call from the shared call table (`@air/shared/api`, decision 019): the
 * method and path come from its name, the body schema and the success answer (and its status,
 * set before the handler runs) from its entry, its operationId and summary in the API document from
 * `CONSOLE_OPERATIONS` beside the table, so a route never repeats them. The route adds its
 * guard, tags, path and query parameters; the handler's body and answer are the table's types.
 * Called inside a module's scope (prefix `/api`): the name's path is taken from that prefix on.
 */
export function route<
  K extends TConsoleCall,
  P extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
>(app: FastifyInstance, call: K, options: TRouteOptions<P, Q>, handler: TRouteHandler<K, P, Q>): void {
  const [method, path] = call.split(' ') as [HTTPMethods, string];
  const spec: TCallSpec = CONSOLE_API[call];
  const operation: TOperation = CONSOLE_OPERATIONS[call];
  if (!path.startsWith(`${app.prefix}/`))
    throw new Error(`${call} is not under this scope's prefix ${app.prefix}`);
  const status = spec.status ?? 200;
  app.route({
    ...options,
    method,
    url: path.slice(app.prefix.length),
    // Names the call on the route, so a test can tell a route registered from the table.
    config: { ...options.config, call },
    schema: {
      ...operation,
      ...options.schema,
      ...(spec.body ? { body: spec.body } : {}),
      response: { ...(options.schema?.response as object | undefined), [status]: spec.response },
    },
    handler:
      status === 200
        ? (handler as TRouteHandler<TConsoleCall, z.ZodType, z.ZodType>)
        : async (request, reply) => {
            reply.code(status);
            return (handler as TRouteHandler<TConsoleCall, z.ZodType, z.ZodType>)(request as never, reply);
          },
  });
}
