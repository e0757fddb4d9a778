import { withDatabase } from '../db/with-database';
import { mintImpersonationLink } from '../modules/auth-impersonate/service';
import type { TCliCommand } from './command';

/** Parses `EMAIL [--as MASTER_EMAIL]`; null when the arguments are wrong. */
export function parseImpersonateArgs(args: string[]): { email: string; as?: string } | null {
  const rest = [...args];
  let as: string | undefined;
  const flag = rest.indexOf('--as');
  if (flag !== -1) {
    as = rest[flag + 1];
    if (!as) return null;
    rest.splice(flag, 2);
  }
  if (rest.length !== 1 || rest[0]!.startsWith('--')) return null;
  return { email: rest[0]!, ...(as ? { as } : {}) };
}

const impersonate: TCliCommand = {
  description: 'print a 5-minute single-use link that signs in as a user',
  usage: 'EMAIL [--as MASTER_EMAIL]',
  async run({ config, args }) {
    const parsed = parseImpersonateArgs(args);
    if (!parsed) {
      console.error('Usage: npm run cli -- impersonate EMAIL [--as MASTER_EMAIL]');
      return 1;
    }
    // A CliError (no such user, no master, …) is printed by cli.ts, exit code 1.
    const link = await withDatabase(config, (database) =>
      mintImpersonationLink(database.db, config.appUrl, parsed.email, parsed.as),
    );
    console.log(
      `Sign in as ${parsed.email} (for master ${link.masterEmail}), once, before ${link.expiresAt.toISOString()}:`,
    );
    console.log(link.url);
    return 0;
  },
};

export default impersonate;
