import { z } from 'zod';
import { INVITABLE_ROLES, ROLES } from '../permissions';

/** A role as the wire carries it (the table and its guards are in permissions.ts, zod-free). */
export const ZRole = z.enum(ROLES);

/** A role an inviter (or an editor of another user) may give: never owner, never master. */
export const ZInvitableRole = z.enum(INVITABLE_ROLES);
