import { and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  ACTIVITY_RETENTION_DAYS,
  ZActivityQuery,
  type TActivityPage,
  type TActivityPerson,
  type TActivityQuery,
  type TActivityType,
} from '@air/shared/schemas/activity';
import type { TDb } from '../../db/client';
import { activityEvents } from '../../db/schema/activity';
import { userContacts } from '../identity/service';
import { CURSOR_TIME, CURSOR_UUID, cursorTime, decodeCursor, encodeCursor } from '../../lib/cursor';

export { actorOf } from './actor';

export interface TActivityInput {
  accountId: string;
  /** Who did it; null for the system (or a key). */
  actorUserId: string | null;
  type: TActivityType;
  /** Display values: an email, a role, a key name, a route name. Never a secret. */
  data?: Record<string, string>;
}

/**
 * Records one entry. Pass the transaction of the change it records, so both commit or neither
 * does: this is the one way other modules write the activity log.
 */
export async function recordActivity(db: TDb, input: TActivityInput): Promise<void> {
  await db.insert(activityEvents).values({
    accountId: input.accountId,
    actorUserId: input.actorUserId,
    type: input.type,
    data: input.data ?? {},
  });
}

/** Entries of these types the account recorded since `since` (e.g. invitations sent today). */
export async function countActivity(
  db: TDb,
  accountId: string,
  types: readonly TActivityType[],
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(activityEvents)
    .where(
      and(
        eq(activityEvents.accountId, accountId),
        inArray(activityEvents.type, [...types]),
        gte(activityEvents.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function retentionStart(): Date {
  return new Date(Date.now() - ACTIVITY_RETENTION_DAYS * 24 * 60 * 60_000);
}

/** The account's log, newest first, filtered by member (as actor or subject) and type. */
export async function listActivity(
  db: TDb,
  accountId: string,
  query: TActivityQuery,
): Promise<TActivityPage> {
  const { member, type, cursor, limit } = ZActivityQuery.parse(query);
  const after = cursor ? decodeCursor(cursor, [CURSOR_TIME, CURSOR_UUID]) : undefined;
  const filters = and(
    eq(activityEvents.accountId, accountId),
    gte(activityEvents.createdAt, retentionStart()),
    type ? eq(activityEvents.type, type) : undefined,
    member
      ? sql`(${activityEvents.actorUserId} = ${member} or ${activityEvents.data}->>'user_id' = ${member})`
      : undefined,
  );
  // Newest first: the next page is what is strictly older than the last row (time, then id).
  const where = after
    ? and(
        filters,
        sql`(${activityEvents.createdAt}, ${activityEvents.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`,
      )
    : filters;
  const found = await db
    .select({
      id: activityEvents.id,
      type: activityEvents.type,
      data: activityEvents.data,
      createdAt: activityEvents.createdAt,
      actorUserId: activityEvents.actorUserId,
      at: cursorTime(activityEvents.createdAt),
    })
    .from(activityEvents)
    .where(where)
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(limit + 1);
  const rows = found.slice(0, limit);
  const last = rows.at(-1);
  // Everyone the kept log names, as actor or subject, for the member filter (whatever the filters).
  const kept = and(eq(activityEvents.accountId, accountId), gte(activityEvents.createdAt, retentionStart()));
  const [actorIds, subjects] = await Promise.all([
    db.selectDistinct({ id: activityEvents.actorUserId }).from(activityEvents).where(kept),
    db
      .selectDistinct({
        id: sql<string | null>`${activityEvents.data}->>'user_id'`,
        name: sql<string | null>`${activityEvents.data}->>'name'`,
        email: sql<string | null>`${activityEvents.data}->>'email'`,
      })
      .from(activityEvents)
      .where(kept),
  ]);
  // Names come from the identity service (one query a page); a deleted actor shows as none.
  const actors = await userContacts(
    db,
    [...actorIds, ...subjects].flatMap((row) => (row.id && UUID.test(row.id) ? [row.id] : [])),
  );
  const people = new Map<string, TActivityPerson>(
    [...actors.values()].map(({ id, name, email }) => [id, { id, name, email }]),
  );
  // A removed member with no other account is deleted: the entry's own name and email stand in.
  for (const subject of subjects) {
    if (!subject.id || !UUID.test(subject.id) || people.has(subject.id) || !subject.email) continue;
    people.set(subject.id, { id: subject.id, name: subject.name || subject.email, email: subject.email });
  }
  return {
    items: rows.map((row) => {
      const actor = row.actorUserId ? actors.get(row.actorUserId) : undefined;
      return {
        id: row.id,
        type: row.type as TActivityType,
        actor: actor ? { id: actor.id, name: actor.name, email: actor.email } : null,
        data: row.data,
        created_at: row.createdAt.toISOString(),
      };
    }),
    people: [...people.values()].sort(
      (a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email),
    ),
    next_cursor: found.length > limit && last ? encodeCursor(last.at, last.id) : null,
  };
}

/** Deletes entries past the retention period (every account). Returns how many went. */
export async function purgeActivity(db: TDb, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 24 * 60 * 60_000);
  const gone = await db
    .delete(activityEvents)
    .where(lt(activityEvents.createdAt, before))
    .returning({ id: activityEvents.id });
  return gone.length;
}
