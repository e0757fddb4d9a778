import type { IncomingHttpHeaders } from 'node:http';
import type { TLocale } from '@air/shared/schemas/common';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TWebhookEvent } from '@air/shared/schemas/webhook';
import type { TConfig } from '../config';
import type { TDb } from '../db/client';
import type { TAttemptLimiter } from '../lib/attempt-limiter';
import type { TChangeBus } from '../lib/change-bus';
import type { TSessionActivity } from '../lib/session-activity';
import type { LookupCache } from '../lib/lookup-cache';
import type { TMailer } from '../mail/mailer';
import type { TAuth, TSessionInfo } from './credentials';

/** The log calls a service makes (pino's signature; Fastify's logger is one). */
export interface TLog {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/**
 * What a service may use besides its arguments: the running app's shared parts, plain values
 * rather than the web framework (decision 016). The Fastify instance is decorated with each of
 * them under the same name, so a route passes `app`; a job, a worker or a test passes an object.
 */
export interface TServices {
  config: TConfig;
  db: TDb;
  plans: TPlan[];
  mailer: TMailer;
  /** Cache invalidation across instances. */
  changes: TChangeBus;
  /** Failed-credential counters (per email, per IP). */
  attempts: TAttemptLimiter;
  sessionCache: LookupCache<TSessionInfo>;
  sessionActivity: TSessionActivity;
  /** Drops one API key from this instance's cache at once (before the change is published). */
  forgetApiKey(keyHash: string): void;
  /** Queues an account event for its outbound webhooks (modules/webhooks); never throws. */
  webhooks: {
    emit(accountId: string, type: TWebhookEvent, data: Record<string, unknown>): Promise<void>;
    /** Wakes the delivery worker after a module queued events in its own transaction. */
    wake?(): void;
  };
  log: TLog;
}

/**
 * Who is calling, as a service needs to know it: the client address, language, headers (user
 * agent), credentials and the request's logger. A Fastify request has each field, so a route
 * passes its `request`; anything else builds the object.
 */
export interface TCaller {
  ip: string;
  locale: TLocale;
  headers: IncomingHttpHeaders;
  auth: TAuth | null;
  log: TLog;
}
