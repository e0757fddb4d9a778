import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import fp from 'fastify-plugin';
import { hasPermission, type TRole } from '@air/shared/permissions';
import type { TApiKeyScope } from '@air/shared/schemas/api-key';
import { apiKeyOf, BEARER, type TSessionEnding } from '../core/credentials';
import { registerMessages } from '../i18n';
import { AppError } from '../lib/app-error';
import { MissBudget, UNKNOWN_LOOKUPS_PER_MINUTE } from '../lib/miss-budget';
import '../i18n/identity';
import { createAuthenticateCaller, type TAuthenticatedCaller } from '../core/authenticate';

registerMessages({
  en: {
    'error.too_many_unknown':
      'Too many requests with unknown API keys from this address. Please wait a minute and try again.',
    'error.key_expired': 'This API key has expired. Create a new key or extend its expiry.',
    'error.removed_only_account':
      'You were removed from {account} and have no other account. Ask an admin for a new invite.',
    'error.left_only_account': 'You left {account} and have no other account.',
    'error.closed_only_account': 'The owner of {account} closed it, and you have no other account.',
  },
  es: {
    'error.too_many_unknown':
      'Demasiadas solicitudes con claves de API desconocidas desde esta dirección. Espera un minuto y vuelve a intentarlo.',
    'error.key_expired': 'Esta clave de API ha caducado. Crea una clave nueva o amplía su caducidad.',
    'error.removed_only_account':
      'Te quitaron de {account} y no perteneces a ninguna otra cuenta. Pide a un administrador una nueva invitación.',
    'error.left_only_account': 'Saliste de {account} y no perteneces a ninguna otra cuenta.',
    'error.closed_only_account':
      'El propietario de {account} la cerró y no perteneces a ninguna otra cuenta.',
  },
});

export interface TAuthorizeOptions {
  /** The permission the route needs (spec section 6 matrix), or any signed-in user. */
  permission?: TRole | 'signed-in';
  /** The API-key scopes that may call this route (any one of them); without one, keys are refused. */
  scope?: TApiKeyScope | readonly TApiKeyScope[];
  /** Refuse API keys even when they carry a scope. */
  sessionOnly?: boolean;
  /** Sessions of users who have not verified their email are refused (403). */
  verified?: boolean;
}

export interface TRouteRequirement {
  method: string;
  url: string;
  permission: TRole | 'signed-in';
  scopes: readonly TApiKeyScope[];
  sessionOnly: boolean;
}

const REQUIREMENT = Symbol('air.authorize');

function scopesOf(options: TAuthorizeOptions): readonly TApiKeyScope[] {
  if (options.scope === undefined) return [];
  return typeof options.scope === 'string' ? [options.scope] : options.scope;
}
type TTaggedHandler = preHandlerAsyncHookHandler & { [REQUIREMENT]?: TAuthorizeOptions };

declare module 'fastify' {
  interface FastifyRequest {
    /** The request named a key that exists but expired (contract 6b): refused as invalid, saying why. */
    keyExpired: boolean;
  }
  interface FastifyInstance {
    /** A preHandler: 401 without valid credentials, 403 when the role or key scope does not allow the route. */
    authorize(options?: TAuthorizeOptions): preHandlerAsyncHookHandler;
    /** Every route that calls `authorize`, with what it requires (the role matrix test reads it). */
    routeRequirements: TRouteRequirement[];
    /** Look-ups of unknown keys and routes per client IP (lib/miss-budget.ts). */
    unknownLookups: MissBudget;
  }
}

function bearerOf(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  return header ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/**
 * Reads the caller's credentials once, for every route (console API and gateway alike), into
 * `request.auth` with `authenticateCaller` (core/authenticate.ts), the function the gateway's
 * fast lane uses too.
 */
export default fp(
  async (app) => {
    app.decorate('unknownLookups', new MissBudget(UNKNOWN_LOOKUPS_PER_MINUTE));
    app.decorateRequest('auth', null);
    app.decorateRequest('keyExpired', false);
    app.decorate('authenticateCaller', createAuthenticateCaller(app));
    const take = (request: FastifyRequest, caller: TAuthenticatedCaller) => {
      request.auth = caller.auth;
      request.keyExpired = caller.keyExpired;
    };
    app.addHook('onRequest', (request, _reply, done) => {
      const caller = app.authenticateCaller(request.headers, request, 'keys-and-sessions');
      if (!(caller instanceof Promise)) {
        take(request, caller);
        return done();
      }
      caller.then((found) => {
        take(request, found);
        done();
      }, done);
    });

    /** What a 401 says when the session ended for this reason. */
    const ENDED_MESSAGE = {
      removed: 'error.removed_only_account',
      left: 'error.left_only_account',
      closed: 'error.closed_only_account',
    } as const satisfies Record<TSessionEnding['reason'], string>;

    /**
     * The 401 of a request without valid credentials: a console token whose session ended because
     * its member was removed from (or left) their only account, or its owner closed it, says so (a rare path: only a validly signed
     * token of an ended session costs the look-up).
     */
    const unauthenticated = async (request: FastifyRequest): Promise<AppError> => {
      const token = apiKeyOf(request.headers) === null ? bearerOf(request.headers) : null;
      const ending = token === null ? null : await app.sessionEnding(token);
      if (!ending) return new AppError('unauthenticated');
      return new AppError('unauthenticated', {
        messageKey: ENDED_MESSAGE[ending.reason],
        params: { account: ending.accountName },
        extra: { ended: { reason: ending.reason, account_name: ending.accountName } },
      });
    };

    app.decorate('authorize', (options: TAuthorizeOptions = {}): preHandlerAsyncHookHandler => {
      const handler: TTaggedHandler = async (request) => {
        const auth = request.auth;
        if (!auth) {
          if (request.keyExpired) throw new AppError('unauthenticated', { messageKey: 'error.key_expired' });
          throw await unauthenticated(request);
        }
        if (auth.kind === 'key') {
          if (options.sessionOnly || !scopesOf(options).some((scope) => auth.scopes.includes(scope))) {
            throw new AppError('forbidden', { messageKey: 'error.key_scope' });
          }
          return;
        }
        const permission = options.permission ?? 'signed-in';
        if (permission !== 'signed-in' && !hasPermission(auth.role, permission))
          throw new AppError('forbidden');
        if (options.verified && !auth.verified) {
          throw new AppError('forbidden', { messageKey: 'error.email_not_verified' });
        }
      };
      handler[REQUIREMENT] = options;
      return handler;
    });

    // Access is decided before the body is validated: a caller without the role gets 403, never a
    // validation answer that would tell them about the route's payload. So an `authorize` handler
    // given as preHandler moves to preValidation, and each route's requirement is recorded.
    const requirements: TRouteRequirement[] = [];
    app.decorate('routeRequirements', requirements);
    app.addHook('onRoute', (route) => {
      const asList = <T>(value: T | T[] | undefined): T[] =>
        value === undefined ? [] : Array.isArray(value) ? value : [value];
      const preHandlers = asList(route.preHandler as TTaggedHandler | TTaggedHandler[] | undefined);
      const moved = preHandlers.filter((h) => h[REQUIREMENT]);
      if (moved.length > 0) {
        route.preHandler = preHandlers.filter((h) => !h[REQUIREMENT]) as typeof route.preHandler;
        route.preValidation = [
          ...moved,
          ...asList(route.preValidation as TTaggedHandler | TTaggedHandler[] | undefined),
        ] as typeof route.preValidation;
      }
      const tagged = asList(route.preValidation as TTaggedHandler | TTaggedHandler[] | undefined).find(
        (h) => h[REQUIREMENT],
      );
      const options = tagged?.[REQUIREMENT];
      if (!options) return;
      for (const method of asList(route.method)) {
        requirements.push({
          method,
          url: route.url,
          permission: options.permission ?? 'signed-in',
          scopes: scopesOf(options),
          sessionOnly: options.sessionOnly === true,
        });
      }
    });
  },
  { name: 'auth' },
);
