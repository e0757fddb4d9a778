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

/*
 * Probes for an orchestrator (no session; decision 046):
 * - `GET /livez`: the process answers (200 `alive`); nothing else is checked, so a database outage
 *   never restarts every instance.
 * - `GET /readyz`: 200 `ready` when the database answers, every migration is applied, Redis (when
 *   REDIS_URL is set) answers and no graceful shutdown began; otherwise 503 `not_ready` (or
 *   `draining`) with the checks that say why.
 */
export const ZLiveness = z.object({ status: z.literal('alive') });
export type TLiveness = z.infer<typeof ZLiveness>;
export const ZReadinessChecks = z.object({
  database: z.enum(['up', 'down']),
  migrations: z.enum(['applied', 'pending', 'unknown']),
  redis: z.enum(['up', 'down']).optional(),
  draining: z.boolean(),
});
export const ZReadiness = z.object({
  status: z.enum(['ready', 'not_ready', 'draining']),
  checks: ZReadinessChecks,
});
export type TReadiness = z.infer<typeof ZReadiness>;
