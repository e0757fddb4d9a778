// Weighs the JavaScript each budgeted route loads before its first paint (the entry, the route's
// layout and page, the query layer where the layout fetches, the English catalogues the page reads,
// and everything they import statically), gzipped, from the Vite manifest of the last build. Code
// a page loads only when needed (a dynamic import: the rich-text editor, the card widget, the
// toaster) is not counted. Fails when a route is over its budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const catalogues = (...namespaces) =>
  namespaces.map((ns) => `src/locales/en/${ns}.json`).filter((key) => key in manifest);
// Layouts that fetch through TanStack Query load it with them (app/router.tsx).
const dataLayout = (layout) => [`src/layouts/${layout}.tsx`, 'src/app/query-provider.tsx'];

/** Each route's budget (KB gzipped), set a few KB above what it loads today. */
const ROUTES = [
  {
    route: '/signin',
    budgetKb: 150,
    modules: ['src/layouts/auth-layout.tsx', 'src/features/auth/routes/signin.tsx', ...catalogues('auth')],
  },
  {
    route: '/dashboard',
    budgetKb: 210,
    modules: [
      ...dataLayout('app-layout'),
      'src/features/dashboard/routes/dashboard.tsx',
      ...catalogues('dashboard', 'usage'),
    ],
  },
  {
    route: '/account/usage',
    budgetKb: 210,
    modules: [...dataLayout('account-layout'), 'src/features/usage/routes/usage.tsx', ...catalogues('usage')],
  },
  {
    route: '/account/upgrade',
    budgetKb: 280,
    modules: [
      ...dataLayout('account-layout'),
      'src/features/billing/routes/upgrade.tsx',
      ...catalogues('billing'),
    ],
  },
];

function weigh(modules) {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  // Every route starts from the entry and the catalogues loaded before the first render.
  ['index.html', ...catalogues('common', 'form'), ...modules].forEach(visit);
  return [...files].map((file) => ({
    file,
    bytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
  }));
}

let over = 0;
for (const { route, budgetKb, modules } of ROUTES) {
  const files = weigh(modules).sort((a, b) => b.bytes - a.bytes);
  const totalKb = files.reduce((sum, f) => sum + f.bytes, 0) / 1024;
  console.log(`${route}: ${totalKb.toFixed(1)} KB gzipped (budget ${budgetKb} KB)`);
  for (const f of files.slice(0, 6))
    console.log(`  ${(f.bytes / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
  if (totalKb > budgetKb) {
    console.error(`  over budget by ${(totalKb - budgetKb).toFixed(1)} KB`);
    over += 1;
  }
}
process.exit(over > 0 ? 1 : 0);
