import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTSIDE_MODULES_FORBIDDEN, TABLE_OWNERS } from '../../../.dependency-cruiser.mjs';

/*
 * dependency-cruiser sees which table file a module imports, not the tables named in SQL text.
 * This reads every sql`…` template of the server and holds it to the same owners (decision 016):
 * a module names only its own tables; code outside modules/ names none of the account data, keys
 * or endpoints. Another owner's rows are joined through the sub-select its service hands out
 * (`left join ${accountNames(db, 'c')} on …`), which this check does not see as a table name.
 */

const SRC = path.resolve(import.meta.dirname, '../src');
const sqlName = (file: string) => file.replaceAll('-', '_');
const OWNERS = new Map<string, string[]>(
  TABLE_OWNERS.flatMap(({ tables, owners }) => tables.map((table) => [sqlName(table), owners] as const)),
);
const FORBIDDEN_OUTSIDE = new Set(OUTSIDE_MODULES_FORBIDDEN.map(sqlName));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'db' && dir === SRC ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Table names after FROM, JOIN, INTO or UPDATE in the file's sql`…` templates. */
export function tablesNamedInSql(source: string): string[] {
  const names: string[] = [];
  for (const [, text] of source.matchAll(/sql`([^`]*)`/g)) {
    for (const [, name] of text!.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_]+)"?/gi)) names.push(name!);
  }
  return names;
}

describe('tables named in SQL text', () => {
  it('finds the tables of a template and not a sub-select handed out by a service', () => {
    expect(
      tablesNamedInSql(
        'sql`select 1 from usage_daily d left join ${accountNames(db, "c")} on c.id = d.id join "users" u on true`',
      ),
    ).toEqual(['usage_daily', 'users']);
  });

  it("no module names another module's table, and nothing outside modules names the account data", () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const relative = path.relative(SRC, file);
      const module = /^modules\/([^/]+)\//.exec(relative)?.[1];
      for (const table of tablesNamedInSql(readFileSync(file, 'utf8'))) {
        const owners = OWNERS.get(table);
        if (module ? owners && !owners.includes(module) : FORBIDDEN_OUTSIDE.has(table))
          found.push(`${relative}: ${table}`);
      }
    }
    expect(found).toEqual([]);
  });
});
