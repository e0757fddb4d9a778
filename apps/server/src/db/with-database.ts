import type { TConfig } from '../config';
import { openDatabase, type TDatabase } from './client';
import { migrateDatabase } from './migrate';

/** Opens and migrates the configured database, runs `work`, and always closes it (CLI, scripts). */
export async function withDatabase<T>(
  config: TConfig,
  work: (database: TDatabase) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database);
    return await work(database);
  } finally {
    await database.close();
  }
}
