import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every console read and write names a call of the shared table (`call`, `submitCall`, a form's
// `call` prop): no module but the typed client speaks HTTP or holds an API path of its own.
const src = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The one client, and the gateway's streamed chat call (not a console call: decision 019). */
const MAY_FETCH = new Set(['lib/api.ts', 'features/registry/playground-stream.ts']);
/** Links the browser opens, not calls: the API reference page. */
const LINKS = ["'/api/docs'"];

describe('console calls', () => {
  const files = sources(src).map((path) => ({
    file: relative(src, path),
    // Comments may name calls and paths; only code counts.
    text: readFileSync(path, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, ''),
  }));

  it('only the typed client calls fetch', () => {
    const fetching = files.filter(({ file, text }) => /\bfetch\(/.test(text) && !MAY_FETCH.has(file));
    expect(fetching.map((f) => f.file)).toEqual([]);
  });

  it('no module builds an API URL of its own', () => {
    const found = files.flatMap(({ file, text }) =>
      [...text.matchAll(/['"`]\/api\/[^'"`]*['"`]?/g)]
        .map((m) => m[0])
        .filter((literal) => !LINKS.includes(literal))
        .map((literal) => `${file}: ${literal}`),
    );
    expect(found).toEqual([]);
  });
});
