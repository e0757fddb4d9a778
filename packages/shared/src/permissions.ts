/** Every role a user can hold in an account. `master` is the operator role (created by the CLI). */
export const ROLES = ['master', 'owner', 'admin', 'developer', 'user'] as const;

// No zod here: the console's shell reads this table on every route, and a zod value defined in
// this module would have to load with it. The schemas are in schemas/roles.ts.
export type TRole = (typeof ROLES)[number];

/** The User's `permission` field: one flag per role, true when that permission is granted. */
export type TPermissionMap = Record<TRole, boolean>;

/**
 * The spec's access matrix (section 6) as data. Read per the server contract: a user whose role is
 * the key may use whatever requires any permission listed for that key. Every guard, on the server
 * and in the console, reads this one table, so change access here and nowhere else.
 *
 * Note the spec's own oddities are kept on purpose: master does not hold `developer`, and admin does
 * not hold `developer` either.
 */
export const ACCESS_MATRIX: Readonly<Record<TRole, readonly TRole[]>> = {
  master: ['master', 'owner', 'admin', 'user'],
  owner: ['owner', 'admin', 'developer', 'user'],
  admin: ['admin', 'user'],
  developer: ['developer', 'user'],
  user: ['user'],
};

/** Roles an inviter (or an editor of another user) may give: never owner, never master. */
export const INVITABLE_ROLES = ['admin', 'developer', 'user'] as const satisfies readonly TRole[];
export type TInvitableRole = (typeof INVITABLE_ROLES)[number];

/** The permission flag map a user with `role` carries (the User entity's `permission`). */
export function permissionsFor(role: TRole): TPermissionMap {
  const granted = ACCESS_MATRIX[role];
  return Object.fromEntries(ROLES.map((r) => [r, granted.includes(r)])) as TPermissionMap;
}

function isRole(value: unknown): value is TRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Whether a user may use something that requires `required`. Accepts either a role or a permission
 * flag map (as carried on the User). Unknown roles and missing maps grant nothing: fail closed.
 */
export function hasPermission(
  subject: TRole | Partial<TPermissionMap> | null | undefined,
  required: TRole,
): boolean {
  if (subject == null) return false;
  if (typeof subject === 'string') return isRole(subject) && ACCESS_MATRIX[subject].includes(required);
  return subject[required] === true;
}
