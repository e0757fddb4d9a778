import { Redis } from 'ioredis';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';

/**
 * Start-up checks that name the variable to fix (issue 43 item 4, decision 046): each failure is
 * one line starting with the variable, printed before migrations run.
 */

/** An error as one line: AggregateError (connect to ::1 and 127.0.0.1) has an empty message. */
export function oneLine(error: unknown): string {
  const value = error as { message?: string; code?: string; errors?: unknown[] };
  const text =
    value.message ||
    (value.errors ?? []).map((inner) => (inner as Error).message).join('; ') ||
    value.code ||
    String(error);
  return text.replace(/\s+/g, ' ').trim();
}

/** Where a URL points, without its user or password. */
function placeOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/** `DATABASE_URL: …` when PostgreSQL does not answer `select 1`; null when it does. */
export async function databaseProblem(
  database: TDatabase,
  config: Pick<TConfig, 'databaseUrl'>,
): Promise<string | null> {
  if (!config.databaseUrl) return null;
  try {
    await database.ping();
    return null;
  } catch (error) {
    return `DATABASE_URL: cannot reach PostgreSQL at ${placeOf(config.databaseUrl)} (${oneLine(error)})`;
  }
}

/**
 * `REDIS_URL: …` when Redis does not answer PING within `timeoutMs`; null when it does or is not
 * configured. Not fatal: the gateway counts locally until Redis answers (decision 036).
 */
export async function redisProblem(
  config: Pick<TConfig, 'redisUrl'>,
  timeoutMs = 3000,
): Promise<string | null> {
  if (!config.redisUrl) return null;
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than "Connection is closed".
  let socketError: unknown;
  redis.on('error', (error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `REDIS_URL: cannot reach Redis at ${placeOf(config.redisUrl)} (${oneLine(socketError ?? error)}); starting anyway, counting quotas and rate limits on this instance until it answers`;
  } finally {
    redis.disconnect();
  }
}

/** The variable behind a failed `listen` (a port in use, an address this machine does not have). */
export function listenProblem(error: unknown, config: Pick<TConfig, 'port' | 'host'>): string | null {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `PORT: ${config.port} is already in use on ${config.host}`;
  if (code === 'EACCES') return `PORT: ${config.port} needs privileges this process does not have`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `HOST: ${config.host} is not an address of this machine (${oneLine(error)})`;
  return null;
}
