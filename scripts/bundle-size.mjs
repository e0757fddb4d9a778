// Weighs the JavaScript each budgeted route loads before its first paint (the entry, the route's
// layout and page, the query layer where the layout fetches, the English catalogues the page reads,
// and everything they import statically), gzipped, from the Vite manifest of the last build. Code
// a page loads only when needed (a dynamic import: the rich-text editor, the card widget, the
// toaster) is not counted. Fails when a route is over its budget, or when it loads overlay code
// (menus, dialogs, popovers, tooltips) its page does not draw at once: the app shell's overlays
// load on first use (apps/web/src/lib/on-demand.ts).
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

/**
 * Radix overlay code, by a string its minified code keeps (an event name, an attribute, a context
 * name). Popper brings floating-ui; DismissableLayer, FocusScope and aria-hidden come with every
 * overlay.
 */
const OVERLAY_CODE = {
  Popper: 'data-radix-popper-content-wrapper',
  DismissableLayer: 'dismissableLayer.pointerDownOutside',
  FocusScope: 'focusScope.autoFocusOnMount',
  'aria-hidden': 'data-aria-hidden',
  Menu: 'menu.itemSelect',
  Tooltip: 'tooltip.open',
  Dialog: 'DialogTrigger',
  Popover: 'PopoverTrigger',
};

/**
 * Each route's budget (KB gzipped), set a few KB above what it loads today, and the overlay code
 * its page draws at once (none unless named).
 */
const ROUTES = [
  {
    route: '/signin',
    // 150 KB until the call table carried params and query (issue 43): the page paints from the
    // static shell before any of this runs (decision 034), and the growth is the typed client and
    // the route table's preload list, which every route needs (decision 053).
    budgetKb: 152,
    modules: ['src/layouts/auth-layout.tsx', 'src/features/auth/routes/signin.tsx', ...catalogues('auth')],
  },
  {
    route: '/dashboard',
    budgetKb: 185,
    modules: [
      ...dataLayout('app-layout'),
      'src/features/dashboard/routes/dashboard.tsx',
      ...catalogues('dashboard', 'usage'),
    ],
  },
  {
    route: '/account/usage',
    budgetKb: 175,
    modules: [...dataLayout('account-layout'), 'src/features/usage/routes/usage.tsx', ...catalogues('usage')],
  },
  {
    route: '/account/upgrade',
    budgetKb: 275,
    modules: [
      ...dataLayout('account-layout'),
      'src/features/billing/routes/upgrade.tsx',
      ...catalogues('billing'),
    ],
    // The plan form's fields (Radix Select, the date field's Popover) and the 3-D Secure dialog.
    overlays: ['Popper', 'DismissableLayer', 'FocusScope', 'aria-hidden', 'Dialog', 'Popover'],
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

/** The overlay code in `files`, other than `allowed`, with the file it is in. */
function overlaysIn(files, allowed = []) {
  const found = [];
  for (const { file } of files) {
    const code = readFileSync(join(dist, file), 'utf8');
    for (const [name, mark] of Object.entries(OVERLAY_CODE))
      if (!allowed.includes(name) && code.includes(mark)) found.push(`${name} (${file})`);
  }
  return found;
}

let over = 0;
for (const { route, budgetKb, modules, overlays } of ROUTES) {
  const files = weigh(modules).sort((a, b) => b.bytes - a.bytes);
  const totalKb = files.reduce((sum, f) => sum + f.bytes, 0) / 1024;
  console.log(`${route}: ${totalKb.toFixed(1)} KB gzipped (budget ${budgetKb} KB)`);
  for (const f of files.slice(0, 6))
    console.log(`  ${(f.bytes / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
  if (totalKb > budgetKb) {
    console.error(`  over budget by ${(totalKb - budgetKb).toFixed(1)} KB`);
    over += 1;
  }
  const early = overlaysIn(files, overlays);
  if (early.length > 0) {
    console.error(`  loads overlay code before its first paint: ${early.join(', ')}`);
    over += 1;
  }
}
process.exit(over > 0 ? 1 : 0);
