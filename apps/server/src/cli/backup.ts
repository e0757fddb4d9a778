import { backupDatabase } from '../db/backup';
import type { TCliCommand } from './command';

/** `npm run cli -- backup FILE`: the database to one file (decision 046; README, Backups). */
const backup: TCliCommand = {
  description: 'write a backup of the database to FILE (pg_dump format, or the embedded data folder)',
  usage: 'FILE',
  async run({ config, args }) {
    const [file] = args;
    if (!file || args.length > 1 || file.startsWith('--')) {
      console.error('Usage: npm run cli -- backup FILE');
      return 1;
    }
    const kind = await backupDatabase(config, file);
    console.log(
      kind === 'pg_dump'
        ? `Backup written to ${file} (pg_dump custom format).`
        : `Backup written to ${file} (the embedded database; stop the server before a backup).`,
    );
    // The stored API keys and upstream headers are encrypted with SECRET: without it the backup
    // restores accounts whose keys cannot be read.
    console.log(
      'Keep SECRET (or DATA_DIR/secret when SECRET is unset) with it: the backup does not hold it.',
    );
    return 0;
  },
};

export default backup;
