import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPermission, ROLES, type TRole } from '@air/shared/permissions';
import { createTestApp, type TTestApp } from './helpers';
import { seedUser, signIn } from './identity-helpers';
import { caller, type TMethod } from './teams-helpers';

/*
 * The permission matrix of spec section 6, enforced by the server route by route: every route
 * that declares a role (app.routeRequirements, recorded by `authorize`) is called by a user of
 * every role; the shared table (ACCESS_MATRIX via hasPermission) says who gets 403.
 */
let t: TTestApp;
const tokens = {} as Record<TRole, string>;

beforeAll(async () => {
  t = await createTestApp();
  const { accountId } = await seedUser(t.app, { email: 'owner@m.io', role: 'owner' });
  for (const role of ROLES) {
    if (role !== 'owner') await seedUser(t.app, { email: `${role}@m.io`, role, accountId });
    tokens[role] = (await signIn(t.app, `${role}@m.io`)).token;
  }
  await t.app.ready();
}, 120_000);
afterAll(async () => t.close());

describe('role matrix, generated from the shared permission table', () => {
  it('covers the role-guarded routes of every domain', () => {
    const guarded = t.app.routeRequirements.filter((r) => r.permission !== 'signed-in');
    const permissions = new Set(guarded.map((r) => r.permission));
    for (const role of ['owner', 'admin', 'developer', 'user'] as const) expect(permissions).toContain(role);
    for (const url of [
      '/api/account/users',
      '/api/invite',
      '/api/user/:id',
      '/api/key',
      '/api/account/plan',
    ]) {
      expect(guarded.map((r) => r.url)).toContain(url);
    }
  });

  it('answers 403 exactly where the table refuses, on every role-guarded route', async () => {
    const call = caller(t.app);
    const routes = t.app.routeRequirements.filter((r) => r.permission !== 'signed-in' && r.method !== 'HEAD');
    const mismatches: string[] = [];
    for (const route of routes) {
      const permission = route.permission as TRole;
      const url = route.url.replace(/:[A-Za-z_]+/g, () => randomUUID());
      for (const role of ROLES) {
        const res = await call(
          route.method as TMethod,
          url,
          tokens[role],
          route.method === 'GET' ? undefined : {},
        );
        const allowed = hasPermission(role, permission);
        const ok = allowed ? res.statusCode !== 403 && res.statusCode !== 401 : res.statusCode === 403;
        if (!ok)
          mismatches.push(`${role} ${route.method} ${route.url} (needs ${permission}): ${res.statusCode}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(routes.length).toBeGreaterThan(10);
  }, 300_000);
});
