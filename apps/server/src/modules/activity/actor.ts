import type { FastifyRequest } from 'fastify';

/** Who the activity log names for a request: the signed-in user, or nobody for an API key. */
export function actorOf(request: FastifyRequest): string | null {
  return request.auth?.kind === 'session' ? request.auth.userId : null;
}
