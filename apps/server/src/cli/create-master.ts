import { withDatabase } from '../db/with-database';
import { makeMaster } from '../modules/auth-impersonate/service';
import type { TCliCommand } from './command';

const createMaster: TCliCommand = {
  description: 'make an existing user a master (may mint impersonation links)',
  usage: 'EMAIL',
  async run({ config, args }) {
    const [email] = args;
    if (!email || args.length > 1) {
      console.error('Usage: npm run cli -- create-master EMAIL');
      return 1;
    }
    // A CliError (no such user, …) is printed by cli.ts, exit code 1.
    const result = await withDatabase(config, (database) => makeMaster(database.db, email));
    console.log(
      result.created
        ? `${email} is now a master (role master in the new "Master" account ${result.accountId}).`
        : `${email} was already a master (account ${result.accountId}).`,
    );
    return 0;
  },
};

export default createMaster;
