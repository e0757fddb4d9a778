import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

const debugOn = (log: FastifyBaseLogger) => (log as Logger).isLevelEnabled('debug');

/**
 * Per-request log lines at debug: at the default level (info) the log holds start-up, warnings and
 * errors, not one line per call. Failed requests keep Fastify's own levels. `LOG_LEVEL=debug`
 * brings the request lines back. The level check comes first so a call at info allocates nothing.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest) {
    if (!debugOn(request.log) || this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    if (!debugOn(reply.log) || this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest) {
    if (!debugOn(request.log) || this.isLogDisabled(request)) return;
    request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }
}
