// Creates an embedded database in a process of its own, which then exits (see embedded-client.ts:
// PGlite keeps what creating a database took, about 300 MB, for as long as its process lives).
// Plain JavaScript: run with `node` alone, from the sources and from the build.
//
//   node embedded-create.mjs <dataDir> <postgresql.conf lines as JSON> [template.tar.gz]
//     a database in <dataDir> (an empty or missing folder), from the template when given (a
//     `dumpDataDir` tarball: no initdb), else by initdb.
//   node embedded-create.mjs --template <out.tar.gz> <postgresql.conf lines as JSON>
//     the template: a new database (initdb, in memory) dumped gzipped (the build makes it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const [first, second, third] = process.argv.slice(2);
if (first === '--template') {
  const db = await PGlite.create({ postgresqlconf: JSON.parse(third) });
  const dump = await db.dumpDataDir('gzip');
  writeFileSync(second, Buffer.from(await dump.arrayBuffer()));
  await db.close();
} else {
  mkdirSync(first, { recursive: true });
  const db = await PGlite.create({
    dataDir: first,
    postgresqlconf: JSON.parse(second),
    ...(third ? { loadDataDir: new Blob([readFileSync(third)]) } : {}),
  });
  await db.query('select 1');
  await db.close();
}
