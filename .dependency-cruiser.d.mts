// The owner tables .dependency-cruiser.mjs exports, typed for apps/server/test/table-owners.test.ts.
import type { IConfiguration } from 'dependency-cruiser';

export declare const TABLE_OWNERS: { tables: string[]; owners: string[] }[];
export declare const OUTSIDE_MODULES_FORBIDDEN: string[];
declare const config: IConfiguration;
export default config;
