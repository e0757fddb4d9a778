import { restoreDatabase } from '../db/backup';
import type { TCliCommand } from './command';

/** `npm run cli -- restore FILE`: a `backup` file into an empty database (decision 046). */
const restore: TCliCommand = {
  description: 'restore a backup FILE into an empty database (a new DATABASE_URL or DATA_DIR)',
  usage: 'FILE',
  async run({ config, args }) {
    const [file] = args;
    if (!file || args.length > 1 || file.startsWith('--')) {
      console.error('Usage: npm run cli -- restore FILE');
      return 1;
    }
    await restoreDatabase(config, file);
    console.log(`Restored ${file}. Start the server with the same SECRET as the backup's.`);
    return 0;
  },
};

export default restore;
