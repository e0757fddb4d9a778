import { and, eq } from 'drizzle-orm';
import {
  NOTIFICATION_NAMES,
  type TNotificationName,
  type TNotificationPref,
} from '@air/shared/schemas/notification';
import type { TDb } from '../../db/client';
import { notificationPrefs } from '../../db/schema/notification-prefs';

/** Every preference of a user; a missing row means on (the default for all four). */
export async function listPrefs(db: TDb, userId: string): Promise<TNotificationPref[]> {
  const rows = await db
    .select({ name: notificationPrefs.name, active: notificationPrefs.active })
    .from(notificationPrefs)
    .where(eq(notificationPrefs.userId, userId));
  const saved = new Map(rows.map((row) => [row.name, row.active]));
  return NOTIFICATION_NAMES.map((name) => ({ name, active: saved.get(name) ?? true }));
}

export async function isNotificationOn(db: TDb, userId: string, name: TNotificationName): Promise<boolean> {
  const [row] = await db
    .select({ active: notificationPrefs.active })
    .from(notificationPrefs)
    .where(and(eq(notificationPrefs.userId, userId), eq(notificationPrefs.name, name)))
    .limit(1);
  return row?.active ?? true;
}

/** Upserts the given preferences (names not given keep their value). */
export async function savePrefs(
  db: Pick<TDb, 'insert'>,
  userId: string,
  prefs: Partial<Record<TNotificationName, boolean>>,
): Promise<void> {
  for (const [name, active] of Object.entries(prefs)) {
    if (typeof active !== 'boolean') continue;
    await db
      .insert(notificationPrefs)
      .values({ userId, name, active })
      .onConflictDoUpdate({ target: [notificationPrefs.userId, notificationPrefs.name], set: { active } });
  }
}

/** The defaults written at sign-up: all four on. */
export const DEFAULT_PREFS = Object.fromEntries(NOTIFICATION_NAMES.map((name) => [name, true])) as Record<
  TNotificationName,
  boolean
>;

/**
 * Writes a new user's default preferences (all on), inside the caller's transaction. A user who
 * already has preferences keeps them (signing up a second account must not reset them).
 */
export async function addDefaultPrefs(db: TDb, userId: string): Promise<void> {
  await db
    .insert(notificationPrefs)
    .values(Object.entries(DEFAULT_PREFS).map(([name, active]) => ({ userId, name, active })))
    .onConflictDoNothing();
}
