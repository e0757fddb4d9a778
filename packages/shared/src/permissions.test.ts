import { describe, expect, it } from 'vitest';
import {
  ACCESS_MATRIX,
  INVITABLE_ROLES,
  ROLES,
  hasPermission,
  permissionsFor,
  type TRole,
} from './permissions';
import { ZInvitableRole, ZRole } from './schemas/roles';

// The spec's section 6 matrix, written out cell by cell: row = the user's role, column = what is required.
const EXPECTED: Record<TRole, Record<TRole, boolean>> = {
  master: { master: true, owner: true, admin: true, developer: false, user: true },
  owner: { master: false, owner: true, admin: true, developer: true, user: true },
  admin: { master: false, owner: false, admin: true, developer: false, user: true },
  developer: { master: false, owner: false, admin: false, developer: true, user: true },
  user: { master: false, owner: false, admin: false, developer: false, user: true },
};

describe('access matrix', () => {
  it('lists the five roles', () => {
    expect([...ROLES]).toEqual(['master', 'owner', 'admin', 'developer', 'user']);
    expect(Object.keys(ACCESS_MATRIX).sort()).toEqual([...ROLES].sort());
  });

  for (const role of ROLES) {
    for (const required of ROLES) {
      const expected = EXPECTED[role][required];
      it(`${role} ${expected ? 'may' : 'may not'} use what needs ${required}`, () => {
        expect(hasPermission(role, required)).toBe(expected);
        expect(hasPermission(permissionsFor(role), required)).toBe(expected);
        expect(permissionsFor(role)[required]).toBe(expected);
      });
    }
  }
});

describe('hasPermission', () => {
  it('fails closed on missing or unknown subjects', () => {
    expect(hasPermission(null, 'user')).toBe(false);
    expect(hasPermission(undefined, 'user')).toBe(false);
    expect(hasPermission('root' as TRole, 'user')).toBe(false);
    expect(hasPermission({}, 'user')).toBe(false);
  });

  it('reads a flag map as sent by the server', () => {
    expect(hasPermission({ user: true, admin: true }, 'admin')).toBe(true);
    expect(hasPermission({ user: true, admin: false }, 'admin')).toBe(false);
  });
});

describe('roles schema', () => {
  it('accepts every role and refuses anything else', () => {
    for (const role of ROLES) expect(ZRole.parse(role)).toBe(role);
    expect(ZRole.safeParse('root').success).toBe(false);
  });

  it('never lets owner or master be invited', () => {
    expect([...INVITABLE_ROLES]).toEqual(['admin', 'developer', 'user']);
    expect(ZInvitableRole.safeParse('owner').success).toBe(false);
    expect(ZInvitableRole.safeParse('master').success).toBe(false);
    expect(ZInvitableRole.parse('developer')).toBe('developer');
  });
});
