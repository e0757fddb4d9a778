import { z } from 'zod';

/*
 * Operations: `GET /healthz` (no session), for load balancers and orchestrators.
 * - 200 after a real database query. With REDIS_URL, `redis` says whether quotas and rate limits
 *   are counted in Redis (`up`) or, Redis being unreachable, in this instance only (`down`).
 * - 503 when the database does not answer.
 */
export const ZHealth = z.object({ status: z.literal('ok'), redis: z.enum(['up', 'down']).optional() });
export type THealth = z.infer<typeof ZHealth>;
export const ZHealthUnavailable = z.object({ status: z.literal('unavailable') });
