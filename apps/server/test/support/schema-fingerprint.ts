/**
 * What a test could have changed in a database beyond rows: relations, columns, constraints,
 * triggers, functions. A pooled database whose fingerprint differs from the migrated one's is not
 * reused (embedded-pool.ts, postgres-pool.ts).
 */
export const SCHEMA_FINGERPRINT_SQL = `
  select md5(string_agg(item, ',' order by item)) as schema from (
    select concat_ws(':', 'n', nspname) as item from pg_namespace where nspname not like 'pg\\_%'
    union all
    select concat_ws(':', 'r', n.nspname, c.relname, c.relkind)
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_t%'
    union all
    select concat_ws(':', 'a', a.attrelid, a.attname, a.atttypid, a.attnotnull)
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
    union all
    select concat_ws(':', 'c', conrelid, conname) from pg_constraint
      where connamespace = 'public'::regnamespace
    union all
    select concat_ws(':', 't', tgrelid, tgname, tgenabled) from pg_trigger where not tgisinternal
    union all
    select concat_ws(':', 'p', p.oid, md5(p.prosrc)) from pg_proc p
      where p.pronamespace = 'public'::regnamespace
  ) as everything`;

/** Every table of the public schema, quoted, for one TRUNCATE. */
export const PUBLIC_TABLES_SQL = `select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`;
