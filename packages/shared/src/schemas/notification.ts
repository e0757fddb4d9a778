import { z } from 'zod';

/** The notification preferences a user can switch (spec section 9). */
export const NOTIFICATION_NAMES = [
  'new_signin',
  'plan_updated',
  'card_updated',
  'invite_accepted',
  'quota_warning',
] as const;
export const ZNotificationName = z.enum(NOTIFICATION_NAMES);
export type TNotificationName = z.infer<typeof ZNotificationName>;

export const ZNotificationPref = z.strictObject({ name: ZNotificationName, active: z.boolean() });
export type TNotificationPref = z.infer<typeof ZNotificationPref>;

/** `PATCH /api/notification`: the list, or a `{ name: active }` map; names left out stay as they are. */
export const ZNotificationUpdate = z.union([
  z.array(ZNotificationPref).max(NOTIFICATION_NAMES.length * 2),
  z.partialRecord(ZNotificationName, z.boolean()),
]);
export type TNotificationUpdate = z.infer<typeof ZNotificationUpdate>;

export const ZNotificationPrefs = z.array(z.object({ name: ZNotificationName, active: z.boolean() }));
