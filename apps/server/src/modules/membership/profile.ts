import { eq } from 'drizzle-orm';
import type { TProviderProfile } from '@air/shared/schemas/marketplace';
import type { TDb } from '../../db/client';
import { accounts } from '../../db/schema/accounts';

/** The account's marketplace profile (its provider page's text), or null when it wrote none. */
export async function profileOf(db: TDb, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ profile: accounts.marketplaceProfile })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.profile ?? null;
}

/** Writes the owner's profile (validated by ZProviderProfileUpdate); blank clears it. */
export async function setProfile(db: TDb, accountId: string, profile: string): Promise<TProviderProfile> {
  const text = profile.trim();
  await db
    .update(accounts)
    .set({ marketplaceProfile: text === '' ? null : text })
    .where(eq(accounts.id, accountId));
  return { profile: text };
}
