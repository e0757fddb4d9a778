import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TCaller } from '../../src/core/services';
import type { TRole } from '@air/shared/permissions';
import type { TApiKeyScope } from '@air/shared/schemas/api-key';
import { accounts, accountUsers, users } from '../../src/db/schema';
import { completeSignIn } from '../../src/modules/auth/sign-in';

export interface TActor {
  /** Session token: send as `Authorization: Bearer <token>`. */
  token: string;
  userId: string;
  accountId: string;
  email: string;
}

export interface TCreateActorOptions {
  /** The user's role in the account (default owner). */
  role?: TRole;
  /** Join this existing account instead of creating a new one. */
  accountId?: string;
  /** Name of the new account (default "Org <random>"). */
  accountName?: string;
  name?: string;
  email?: string;
  verified?: boolean;
}

/**
 * A signed-in user for API tests: a verified, onboarded user, a membership with `role` in a new
 * (or the given) account on the free plan, and a real session minted by the sign-in service.
 */
export async function createActor(app: FastifyInstance, options: TCreateActorOptions = {}): Promise<TActor> {
  const suffix = randomBytes(5).toString('hex');
  const email = (options.email ?? `user-${suffix}@example.test`).toLowerCase();
  let accountId = options.accountId;
  if (!accountId) {
    const hasFree = app.plans.some((plan) => plan.id === 'free');
    const [account] = await app.db
      .insert(accounts)
      .values({ name: options.accountName ?? `Org ${suffix}`, planId: hasFree ? 'free' : null })
      .returning({ id: accounts.id });
    accountId = account!.id;
  }
  const [user] = await app.db
    .insert(users)
    .values({
      name: options.name ?? `User ${suffix}`,
      email,
      verified: options.verified ?? true,
      onboarded: true,
      defaultAccountId: accountId,
    })
    .returning({ id: users.id });
  await app.db
    .insert(accountUsers)
    .values({ accountId, userId: user!.id, permission: options.role ?? 'owner' });

  // The sign-in service only reads the client's address and device and logs through the request.
  const request: TCaller = {
    ip: '127.0.0.1',
    locale: 'en',
    headers: { 'user-agent': 'air-test' },
    auth: null,
    log: app.log,
  };
  const signedIn = await completeSignIn(app, request, { userId: user!.id, accountId });
  return { token: signedIn.token, userId: user!.id, accountId, email };
}

/** `{ authorization: 'Bearer …' }` for a session token or an API key. */
export function bearer(tokenOrKey: string): { authorization: string } {
  return { authorization: `Bearer ${tokenOrKey}` };
}

/** Creates an API key through `POST /api/key` as `actor` (who must hold developer) and returns it. */
export async function createApiKey(
  app: FastifyInstance,
  actor: Pick<TActor, 'token'>,
  scope: TApiKeyScope[],
  name = 'test key',
): Promise<{ id: string; key: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/key',
    headers: bearer(actor.token),
    payload: { name, scope },
  });
  if (response.statusCode !== 201)
    throw new Error(`POST /api/key answered ${response.statusCode}: ${response.body}`);
  const body = response.json<{ data: { id: string; full_key: string } }>();
  return { id: body.data.id, key: body.data.full_key };
}
