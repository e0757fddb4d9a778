import type { TCliCommand } from './command';
import { loadPlans, seedPlans } from '../modules/billing/service';
import { withDatabase } from '../db/with-database';

const migrate: TCliCommand = {
  description: 'apply pending database migrations and sync the plans file',
  async run({ config }) {
    await withDatabase(config, async (database) => {
      await seedPlans(database.db, loadPlans(config.plansFile));
      console.log(`Database is up to date (${database.driver}).`);
    });
    return 0;
  },
};

export default migrate;
