import { desc, eq } from 'drizzle-orm';
import type { TApp } from '../src/app';
import { mailOutbox } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer } from './identity-helpers';

export type TMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type TCaller = ReturnType<typeof caller>;

export function caller(app: TApp) {
  return (method: TMethod, url: string, token: string | null, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/**
 * A test app for the team flows (links in mail on http://air.test) and its caller:
 * `beforeEach(async () => ({ t, call } = await teamsApp()))`.
 */
export async function teamsApp(): Promise<{ t: TTestApp; call: TCaller }> {
  const t = await createTestApp({ appUrl: 'http://air.test' });
  return { t, call: caller(t.app) };
}

/** The invite link token of the newest invite mail to `to`. */
export async function inviteToken(app: TApp, to: string): Promise<string> {
  const [mail] = await app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt));
  const link =
    mail?.template === 'invite' ? mail.links.find((l) => l.includes('/signup/user?token=')) : undefined;
  if (!link) throw new Error(`no invite mail to ${to}`);
  return new URL(link).searchParams.get('token')!;
}

export async function inviteMails(app: TApp, to: string) {
  const rows = await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, to.toLowerCase()));
  return rows.filter((row) => row.template === 'invite');
}
