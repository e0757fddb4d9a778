import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Issue 37, item 7b: who may call each console route, written here as data, not read from each
 * route's own declaration (teams-matrix.test.ts reads `authorize`'s records, so a route that
 * declares the wrong role, or none, passes there). Every route is called by an owner, an admin, a
 * developer and a user of one account, and without credentials; a role the table does not allow
 * must get 403, an allowed one must get past the guard (no 401, no 403). A route registered under
 * /api that the table does not list fails the test: whoever adds one decides its role here.
 */

const ROLES = ['owner', 'admin', 'developer', 'user'] as const;
type TRole = (typeof ROLES)[number];

/** Who may call a route: anyone (no sign-in), or the roles listed. */
type TAccess = 'public' | readonly TRole[];

const PUBLIC = 'public';
const MEMBER: readonly TRole[] = ['owner', 'admin', 'developer', 'user'];
const ADMIN: readonly TRole[] = ['owner', 'admin'];
const DEVELOPER: readonly TRole[] = ['owner', 'developer'];
const OWNER: readonly TRole[] = ['owner'];

interface TEntry {
  access: TAccess;
  /** The call ends the caller's own session or user: made with a fresh sign-in of that role. */
  fresh?: boolean;
}

/** The six name-only collections (contract 5): one mechanism, any member of the account. */
const COLLECTIONS = ['newitem', 'newitemtwo', 'endpointtest', 'airoute', 'air', 'search'];
const collectionRoutes = Object.fromEntries(
  COLLECTIONS.flatMap((kind) => [
    [`GET /api/${kind}`, { access: MEMBER }],
    [`GET /api/${kind}/:id`, { access: MEMBER }],
    [`POST /api/${kind}`, { access: MEMBER }],
    [`PATCH /api/${kind}/:id`, { access: MEMBER }],
    [`DELETE /api/${kind}`, { access: MEMBER }],
    [`DELETE /api/${kind}/:ids`, { access: MEMBER }],
  ]),
) as Record<string, TEntry>;

const TABLE: Record<string, TEntry> = {
  // Sign-up, sign-in and the links mailed out: no session yet.
  'POST /api/account': { access: PUBLIC },
  'POST /api/auth': { access: PUBLIC },
  // The console's start-up check: answers "not authenticated", never 401.
  'GET /api/auth': { access: PUBLIC },
  'POST /api/auth/password/reset/request': { access: PUBLIC },
  'POST /api/auth/password/reset': { access: PUBLIC },
  'POST /api/auth/magic': { access: PUBLIC },
  'POST /api/auth/magic/verify': { access: PUBLIC },
  'POST /api/auth/otp': { access: PUBLIC },
  'POST /api/auth/impersonate': { access: PUBLIC },
  'GET /api/auth/providers': { access: PUBLIC },
  'GET /api/auth/social/:provider': { access: PUBLIC },
  'GET /api/auth/social/:provider/callback': { access: PUBLIC },
  'GET /api/invite/:token': { access: PUBLIC },
  'POST /api/user': { access: PUBLIC },
  'POST /api/user/verify': { access: PUBLIC },
  'GET /api/billing/config': { access: PUBLIC },
  'GET /api/marketplace': { access: PUBLIC },
  'GET /api/marketplace-models': { access: PUBLIC },
  'GET /api/marketplace/:provider': { access: PUBLIC },
  'GET /api/marketplace/:provider/:name': { access: PUBLIC },
  // A developer tool outside production, for callers on this machine only (no session).
  'POST /api/dev/billing-clock': { access: PUBLIC },

  // The signed-in user's own things.
  'DELETE /api/auth': { access: MEMBER, fresh: true },
  'POST /api/auth/switch': { access: MEMBER },
  'GET /api/user': { access: MEMBER },
  'PATCH /api/user': { access: MEMBER },
  'DELETE /api/user': { access: MEMBER, fresh: true },
  'GET /api/user/permissions': { access: MEMBER },
  'PUT /api/user/password': { access: MEMBER },
  'POST /api/user/verify/request': { access: MEMBER },
  'PUT /api/user/2fa': { access: MEMBER },
  'POST /api/user/2fa/verify': { access: MEMBER },
  'GET /api/user/sessions': { access: MEMBER },
  'DELETE /api/user/sessions': { access: MEMBER },
  'DELETE /api/user/sessions/:id': { access: MEMBER },
  'GET /api/notification': { access: MEMBER },
  'PATCH /api/notification': { access: MEMBER },
  'POST /api/feedback': { access: MEMBER },
  'POST /api/event': { access: MEMBER },
  'GET /api/utility/config': { access: MEMBER },
  'POST /api/utility/mail': { access: MEMBER },

  // The account: plans and usage for every member; team for admins; money for the owner.
  'GET /api/account/plans': { access: MEMBER },
  'GET /api/account/plan': { access: MEMBER },
  'GET /api/account/usage': { access: MEMBER },
  'GET /api/account/usage/insight': { access: MEMBER },
  'GET /api/account/usage/log': { access: MEMBER },
  'GET /api/account/usage/limits': { access: MEMBER },
  'GET /api/account/overview': { access: MEMBER },
  'POST /api/billing/local/token': { access: MEMBER },
  'POST /api/billing/local/confirm': { access: MEMBER },
  'GET /api/account/activity': { access: ADMIN },
  'GET /api/account/users': { access: ADMIN },
  'POST /api/invite': { access: ADMIN },
  'DELETE /api/invite': { access: ADMIN },
  'DELETE /api/invite/:id': { access: ADMIN },
  'PATCH /api/user/:id': { access: ADMIN },
  // Another member's id (the one called here): admins only. Anyone may leave with their own id.
  'DELETE /api/user/:id': { access: ADMIN },
  'PATCH /api/account/spend-limit': { access: ADMIN },
  // Outbound webhooks (contract 6e): where the account's events go, its owner and admins.
  'GET /api/webhook': { access: ADMIN },
  'POST /api/webhook': { access: ADMIN },
  'PATCH /api/webhook/:id': { access: ADMIN },
  'DELETE /api/webhook/:id': { access: ADMIN },
  'POST /api/webhook/:id/test': { access: ADMIN },
  'GET /api/webhook/:id/deliveries': { access: ADMIN },
  'POST /api/account/plan': { access: OWNER },
  'PATCH /api/account/plan': { access: OWNER },
  'GET /api/account/plan/preview': { access: OWNER },
  'DELETE /api/account': { access: OWNER },
  'GET /api/account/subscription': { access: OWNER },
  'POST /api/account/subscription/authorize': { access: OWNER },
  'POST /api/account/upgrade': { access: OWNER },
  'GET /api/account/invoice': { access: OWNER },
  // Also opened with the signed token of `invoice_pdf` (no session); with a session, the owner's.
  'GET /api/account/invoice/:id/pdf': { access: OWNER },
  'GET /api/account/card': { access: OWNER },
  'PATCH /api/account/card': { access: OWNER },
  'GET /api/account/earnings': { access: OWNER },
  // Payouts (contract 5b): the provider's money, its owner alone. The statement also opens with
  // the signed token of `statement_pdf` / `statement_csv`.
  'GET /api/account/payouts': { access: OWNER },
  'GET /api/account/payout-account': { access: OWNER },
  'GET /api/account/marketplace-profile': { access: OWNER },
  'PUT /api/account/marketplace-profile': { access: OWNER },
  'PUT /api/account/payout-account': { access: OWNER },
  'GET /api/account/payouts/:id/pdf': { access: OWNER },
  'GET /api/account/payouts/:id/csv': { access: OWNER },

  // API keys: developers (the owner holds developer; an admin does not).
  'GET /api/key/scopes': { access: DEVELOPER },
  'GET /api/key': { access: DEVELOPER },
  'GET /api/key/:id': { access: DEVELOPER },
  'POST /api/key': { access: DEVELOPER },
  'PATCH /api/key/:id': { access: DEVELOPER },
  'DELETE /api/key': { access: DEVELOPER },

  // The registry: any member of the account (decision 004).
  'GET /api/aiendpoint': { access: MEMBER },
  'GET /api/aiendpoint/:id': { access: MEMBER },
  'POST /api/aiendpoint': { access: MEMBER },
  'PATCH /api/aiendpoint/:id': { access: MEMBER },
  'GET /api/aiendpoint/:id/upstreams': { access: MEMBER },
  'GET /api/aiendpoint/:id/tools': { access: MEMBER },
  'DELETE /api/aiendpoint/:ids': { access: MEMBER },
  'GET /api/aiendpointShared': { access: MEMBER },
  ...collectionRoutes,
};

/**
 * Registered under /api but no console route: the gateway (OpenAI's surface and the MCP proxy,
 * called with API keys) and the API docs.
 */
const NOT_CONSOLE = [/^\/api\/v1(\/|\*|$)/, /^\/api\/mcp(\/|$)/, /^\/api\/docs(\/|$)/];

let t: TTestApp;
const registered = new Set<string>();
const actors = {} as Record<TRole, TActor>;

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) registered.add(`${method} ${route.url}`);
      },
    },
  );
  await t.app.ready();
  const owner = await createActor(t.app, { role: 'owner' });
  actors.owner = owner;
  for (const role of ROLES)
    if (role !== 'owner') actors[role] = await createActor(t.app, { role, accountId: owner.accountId });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** `/api/key/:id` with a fresh id in each parameter (nobody's row: the guard answers first). */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z_]+/g, () => randomUUID());
}

function call(key: string, token: string | null) {
  const [method, path] = key.split(' ') as ['GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', string];
  return t.app.inject({
    method,
    url: concrete(path),
    headers: token ? bearer(token) : {},
    ...(method === 'GET' ? {} : { payload: {} }),
  });
}

/** Why one role's answer breaks the table, or null when it keeps it. */
function mismatch(key: string, role: TRole | 'anonymous', status: number): string | null {
  const { access } = TABLE[key]!;
  const allowed = access === PUBLIC || (role !== 'anonymous' && access.includes(role));
  if (role === 'anonymous' && access !== PUBLIC)
    return status === 401 ? null : `${key} without sign-in: ${status}, expected 401`;
  if (allowed) return status === 401 || status === 403 ? `${key} as ${role}: ${status}, allowed` : null;
  return status === 403 ? null : `${key} as ${role}: ${status}, expected 403`;
}

describe('console routes: a fixed role table', () => {
  it('lists every console route the app registers, and no other', () => {
    const consoleRoutes = [...registered]
      .filter((key) => key.split(' ')[0] !== 'HEAD')
      .filter((key) => key.split(' ')[1]!.startsWith('/api/'))
      .filter((key) => !NOT_CONSOLE.some((pattern) => pattern.test(key.split(' ')[1]!)));
    expect(consoleRoutes.filter((key) => !(key in TABLE)).sort(), 'routes without a role here').toEqual([]);
    expect(
      Object.keys(TABLE).filter((key) => !registered.has(key)),
      'listed but not registered',
    ).toEqual([]);
  });

  it('answers 403 to every role the table leaves out, and lets the others past the guard', async () => {
    const problems: string[] = [];
    for (const key of Object.keys(TABLE)) {
      const anonymous = mismatch(key, 'anonymous', (await call(key, null)).statusCode);
      if (anonymous) problems.push(anonymous);
      for (const role of ROLES) {
        const token = TABLE[key]!.fresh
          ? (await createActor(t.app, { role, accountId: actors.owner.accountId })).token
          : actors[role].token;
        const problem = mismatch(key, role, (await call(key, token)).statusCode);
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
    // The sweep ran with working sessions throughout: no call above ended one of them.
    for (const role of ROLES) {
      const me = await t.app.inject({ url: '/api/user', headers: bearer(actors[role].token) });
      expect(me.statusCode, role).toBe(200);
    }
  }, 300_000);

  it('refuses a developer the earnings, an admin the keys, a user the team', async () => {
    const earnings = await t.app.inject({
      url: '/api/account/earnings',
      headers: bearer(actors.developer.token),
    });
    expect(earnings.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/key', headers: bearer(actors.admin.token) })).statusCode).toBe(
      403,
    );
    const users = await t.app.inject({ url: '/api/account/users', headers: bearer(actors.user.token) });
    expect(users.statusCode).toBe(403);
  });
});
