import { z } from 'zod';
import { pageQuery, ZPage } from './page';

/**
 * The account's activity log (`GET /api/account/activity`, admin): who did what, newest first,
 * kept 90 days. `data` holds display values (an email, a role, a key name, a route name).
 */
export const ACTIVITY_TYPES = [
  'member.invited',
  'member.invite_resent',
  'member.invite_deleted',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'key.created',
  'key.revoked',
  'key.revealed',
  'key.deleted',
  'endpoint.created',
  'endpoint.shared',
  'endpoint.deleted',
  'plan.changed',
  'card.changed',
  'signin.new_device',
] as const;
export const ZActivityType = z.enum(ACTIVITY_TYPES);
export type TActivityType = z.infer<typeof ZActivityType>;

export const ACTIVITY_RETENTION_DAYS = 90;
export const ACTIVITY_PAGE_SIZE = 50;

/** `GET /api/account/activity`: the filters and a cursor page (default 50, at most 200). */
export const ZActivityQuery = z.strictObject({
  member: z.uuid().optional(),
  type: ZActivityType.optional(),
  ...pageQuery({ default: ACTIVITY_PAGE_SIZE, max: 200 }),
});
export type TActivityQuery = z.input<typeof ZActivityQuery>;

export const ZActivityPerson = z.object({ id: z.uuid(), name: z.string(), email: z.string() });
export type TActivityPerson = z.infer<typeof ZActivityPerson>;

export const ZActivityEntry = z.object({
  id: z.uuid(),
  type: ZActivityType,
  actor: ZActivityPerson.nullable(),
  data: z.record(z.string(), z.string()),
  created_at: z.string(),
});
export type TActivityEntry = z.infer<typeof ZActivityEntry>;

export const ZActivityPage = ZPage(ZActivityEntry).extend({
  /**
   * Everyone the kept log names, as actor or subject, whatever the filters: the member filter
   * offers them, so a member removed since stays filterable.
   */
  people: z.array(ZActivityPerson),
});
export type TActivityPage = z.infer<typeof ZActivityPage>;
