// Weighs the JavaScript the sign-in route loads (entry + the auth layout + the sign-in page and
// everything they import statically), gzipped, from the Vite manifest of the last build. Fails
// above the budget of 150 KB.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 150;
const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

// The entry, the auth layout, the sign-in page, and the English catalogues the page reads (each
// language's catalogues are chunks of their own, loaded on demand).
const routeModules = [
  'index.html',
  'src/layouts/auth-layout.tsx',
  'src/features/auth/routes/signin.tsx',
  ...['common', 'form', 'auth'].map((ns) => `src/locales/en/${ns}.json`).filter((key) => key in manifest),
];
const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
routeModules.forEach(visit);

let total = 0;
const rows = [...files].map((file) => {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  return { file, kb: (size / 1024).toFixed(1) };
});
rows.sort((a, b) => Number(b.kb) - Number(a.kb));
for (const row of rows) console.log(`  ${row.kb.padStart(7)} KB  ${row.file}`);
const totalKb = total / 1024;
console.log(`Sign-in route JavaScript: ${totalKb.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB)`);
if (totalKb > BUDGET_KB) {
  console.error(`Over budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
