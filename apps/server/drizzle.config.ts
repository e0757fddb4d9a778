import { defineConfig } from 'drizzle-kit';

// One schema, one migration set for both drivers (PGlite and PostgreSQL): `npm run db:generate -w apps/server`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  strict: true,
  verbose: false,
});
