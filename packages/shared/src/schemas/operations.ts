import { z } from 'zod';

/*
 * Operations: `GET /healthz` (no session), for load balancers and orchestrators.
 * - 200 after a real database query. With REDIS_URL, `redis` says whether quotas and rate limits
 *   are counted in Redis (`up`) or, Redis being unreachable, in this instance only (`down`).
 * - 503 `unavailable` when the database does not answer; 503 `draining` once the instance began a
 *   graceful shutdown (it still serves requests for SHUTDOWN_DELAY_MS, then stops accepting).
 */
export const ZHealth = z.object({ status: z.literal('ok'), redis: z.enum(['up', 'down']).optional() });
export type THealth = z.infer<typeof ZHealth>;
export const ZHealthUnavailable = z.object({ status: z.enum(['unavailable', 'draining']) });
