import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, startUpstream, type TUser } from '../support/users';

/*
 * axe-core on every route of the console's table (apps/web/src/app/routes.ts, public-routes.ts),
 * signed out and signed in, in both themes. A serious or critical violation of WCAG 2.0/2.1 A or AA
 * fails the test, named by route, variant and rule. Every route is audited in each theme at one
 * width (light at 1280 px, dark at 390 px); the other width of each theme audits the routes whose
 * layout changes most with the width (the shells' navigation, the billing tabs, the catalog), so
 * each theme meets each width without walking every route four times (decision 031). One browser
 * context per variant walks its routes, so the console's bundle loads once per variant; the two
 * widths of a theme run at the same time.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = ['serious', 'critical'];
const THEMES = ['light', 'dark'] as const;
const WIDTHS = [390, 1280] as const;
/** The width at which a theme audits every route; at its other width, only SAMPLED routes. */
const EVERY_ROUTE_WIDTH = { light: 1280, dark: 390 } as const;
const SAMPLED = new Set(['/signin', '/marketplace', '/dashboard', '/registry', '/account/billing']);
interface TVariant {
  theme: (typeof THEMES)[number];
  width: (typeof WIDTHS)[number];
}

interface TVisit {
  /** The URL opened (with ids and query strings filled in). */
  url: string;
  /** The route-table path this visit covers. */
  route: string;
  /** What shows once the page has its data (default: the first h1). */
  ready?: (page: Page) => Promise<void>;
  /** States of the page audited after it (a dialog, a menu, another tab), each undone by `close`. */
  states?: TState[];
}

interface TState {
  name: string;
  open: (page: Page) => Promise<void>;
  close?: (page: Page) => Promise<void>;
}

const escape = (page: Page) => page.keyboard.press('Escape');
const tab = (name: string): TState => ({
  name: `${name} tab`,
  open: async (page) => {
    await page.getByRole('tab', { name }).click();
    await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
  },
});

/** Paths of the route table, read from its source so a route added there must be added here. */
function routeTablePaths(): string[] {
  return ['public-routes.ts', 'routes.ts'].flatMap((file) => {
    const source = readFileSync(new URL(`../../apps/web/src/app/${file}`, import.meta.url), 'utf8');
    return [...source.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!);
  });
}

const PUBLIC: TVisit[] = [
  { url: '/', route: '/' },
  { url: '/signin', route: '/signin' },
  { url: '/signup', route: '/signup' },
  { url: '/signin/otp?token=example', route: '/signin/otp' },
  { url: '/signin/social?provider=google&error=access_denied', route: '/signin/social' },
  { url: '/magic', route: '/magic' },
  { url: '/forgotpassword', route: '/forgotpassword' },
  { url: '/resetpassword?token=example&email=ada%40example.test', route: '/resetpassword' },
  { url: '/signin/impersonate', route: '/signin/impersonate' },
  { url: '/signup/user', route: '/signup/user' },
  { url: '/marketplace', route: '/marketplace' },
  { url: '/mktfull', route: '/mktfull' },
  { url: '/airindex', route: '/airindex' },
  { url: '/air', route: '/air' },
  { url: '/airfull', route: '/airfull' },
  { url: '/notfound', route: '/notfound' },
  { url: '/404', route: '/404' },
  { url: '/no/such/page', route: '*' },
];

interface TSeed {
  owner: TUser;
  unverified: { token: string; user: Record<string, unknown> };
  keyId: string;
  endpointId: string;
  /** The shared endpoint's route name (`provider/agent`), listed in the public catalog. */
  routeName: string;
  items: Record<string, string>;
}

function signedInVisits({ keyId, endpointId, routeName, items }: TSeed): TVisit[] {
  const list = (path: string, kind: string): TVisit[] => [
    { url: path, route: path },
    { url: `${path}/${items[kind]}`, route: `${path}/:id` },
  ];
  return [
    { url: '/signup/plan', route: '/signup/plan' },
    { url: '/welcome', route: '/welcome' },
    { url: '/welcome?page=2', route: '/welcome' },
    {
      url: '/dashboard',
      route: '/dashboard',
      ready: async (page) => {
        await expect(page.getByTestId('snippet-curl')).toContainText('air_');
        // The overview with its figures (the seed's failed calls) and the checklist's last step.
        await expect(page.getByTestId('latest-calls').getByRole('listitem')).toHaveCount(2);
        await expect(page.getByTestId('get-started')).toBeVisible();
        // The welcome line under the heading.
        await expect(page.getByText('Welcome, Ada Audit', { exact: true })).toBeVisible();
      },
      states: [
        {
          name: 'user menu',
          open: async (page) => {
            await page.getByRole('button', { name: /^Ada Audit/ }).click();
            await expect(page.getByRole('menu')).toBeVisible();
          },
          close: escape,
        },
        {
          // The slide-out navigation of small screens (a no-op on wide ones, where the rail shows).
          name: 'navigation menu',
          open: async (page) => {
            const opener = page.getByRole('button', { name: 'Open menu' });
            if (!(await opener.isVisible())) return;
            await opener.click();
            await expect(page.getByRole('dialog')).toBeVisible();
          },
          close: escape,
        },
      ],
    },
    {
      url: '/registry',
      route: '/registry',
      states: [
        {
          name: 'new endpoint dialog',
          open: async (page) => {
            await page.getByRole('button', { name: 'New', exact: true }).click();
            await expect(page.getByRole('dialog')).toBeVisible();
          },
          close: escape,
        },
      ],
    },
    { url: '/aiendpoints', route: '/aiendpoints' },
    { url: `/marketplace/${routeName.split('/')[0]}`, route: '/marketplace/:provider' },
    {
      url: `/marketplace/${routeName}`,
      route: '/marketplace/:provider/:name',
      ready: async (page) => {
        await expect(page.getByTestId('daily-chart')).toBeVisible();
      },
    },
    {
      url: `/aiendpoints/${endpointId}`,
      route: '/aiendpoints/:id',
      states: [tab('Settings'), tab('Try it')],
    },
    { url: '/mkt', route: '/mkt' },
    { url: '/account', route: '/account' },
    { url: '/account/usage', route: '/account/usage' },
    { url: '/account/profile', route: '/account/profile' },
    { url: '/account/password', route: '/account/password' },
    { url: '/account/2fa', route: '/account/2fa' },
    { url: '/account/notifications', route: '/account/notifications' },
    { url: '/account/billing', route: '/account/billing', states: [tab('Card'), tab('Invoices')] },
    { url: '/account/earnings', route: '/account/earnings' },
    { url: '/account/payouts', route: '/account/payouts' },
    { url: '/account/upgrade', route: '/account/upgrade' },
    { url: '/account/apikeys', route: '/account/apikeys' },
    { url: '/account/apikeys/create', route: '/account/apikeys/create' },
    { url: `/account/apikeys/edit?id=${keyId}`, route: '/account/apikeys/edit' },
    { url: '/account/users', route: '/account/users' },
    { url: '/account/webhooks', route: '/account/webhooks' },
    { url: '/help', route: '/help' },
    ...list('/newitems', 'newitem'),
    ...list('/newitemtwos', 'newitemtwo'),
    ...list('/endpointtests', 'endpointtest'),
    ...list('/airoutes', 'airoute'),
    { url: '/airs', route: '/airs' },
    { url: `/airs/${items.air}`, route: '/airs/:id' },
    { url: `/air/${items.air}`, route: '/air/:id' },
    ...list('/search', 'search'),
    { url: `/searchs/${items.search}`, route: '/searchs/:id' },
    // The public pages again, inside a session (the AIR layouts show the signed-in chrome).
    ...PUBLIC.filter((v) => /^\/(marketplace|mktfull|airindex|air|airfull|404)$/.test(v.url)),
  ];
}

/** Waits until the page shows its content: its heading, and no spinner or busy region left. */
async function settle(page: Page, visit: TVisit) {
  if (visit.ready) await visit.ready(page);
  else await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('.animate-spin:visible, [aria-busy="true"]')).toHaveCount(0);
  // A toast fading in is measured half-transparent: let finite animations and transitions end.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/**
 * Opens a route the way a link does, inside the running console (no reload), so the bundle and the
 * session load once per variant rather than once per route; the first visit loads the page.
 */
async function open(page: Page, url: string) {
  if (page.url() === 'about:blank') {
    await page.goto(url);
    return;
  }
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

async function audit(page: Page, visit: TVisit, variant: string, found: string[]) {
  await open(page, visit.url);
  await settle(page, visit);
  await check(page, visit.url, variant, found);
  for (const state of visit.states ?? []) {
    await state.open(page);
    await settle(page, { ...visit, ready: async () => undefined });
    await check(page, `${visit.url} (${state.name})`, variant, found);
    if (state.close) await state.close(page);
  }
}

async function check(page: Page, where: string, variant: string, found: string[]) {
  // Legacy mode runs axe in the page itself: the default opens a blank page per run to merge
  // frame results, and these pages have no frames. Only violations are collected.
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  for (const v of violations) {
    if (!FAILING_IMPACTS.includes(v.impact ?? '')) continue;
    const nodes = v.nodes
      .slice(0, 3)
      .map(
        (n) =>
          `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`,
      )
      .join('; ');
    found.push(`${where} [${variant}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${nodes}`);
  }
  // Headings never skip a level (axe's heading-order is only a moderate best practice): the first
  // is the page's h1 (or, over a modal that hides the page, the dialog's title, an h2), and each
  // one goes at most one level deeper than the one before it.
  const headings = await page.evaluate(() =>
    [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
      .filter(
        (el) => !el.closest('[aria-hidden="true"], [hidden]') && getComputedStyle(el).display !== 'none',
      )
      .map((el) => ({
        level: Number(el.getAttribute('aria-level') ?? el.tagName.slice(1)),
        text: (el.textContent ?? '').trim().slice(0, 40),
        inDialog: el.closest('[role="dialog"], [role="alertdialog"]') !== null,
      })),
  );
  let previous = headings[0]?.inDialog ? 1 : 0;
  for (const heading of headings) {
    if (heading.level > previous + 1)
      found.push(
        `${where} [${variant}] heading-order: h${previous} then h${heading.level} "${heading.text}"`,
      );
    previous = heading.level;
  }
}

/** A context for one variant; `session` signs it in before the console loads. */
async function openVariant(
  browser: Browser,
  { theme, width }: TVariant,
  session?: { token: string; user: Record<string, unknown> },
) {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
  await context.addInitScript(
    ([mode, token, user]) => {
      localStorage.setItem('air.theme', mode);
      // A blocked script, style, eval or connection is a report in the browser's Issues panel,
      // even when the page swallows it (zod's eval probe did): each one fails the test below.
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`),
      );
      if (token && !localStorage.getItem('air.token')) {
        localStorage.setItem('air.token', token);
        localStorage.setItem('air.user', user);
      }
    },
    [theme, session?.token ?? '', JSON.stringify(session?.user ?? {})] as const,
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    // Pages opened with example tokens (reset, OTP, impersonate) are refused by the server on purpose.
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text()))
      errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
  return { context, page, errors };
}

test.use({ trace: 'off' });

let seed: TSeed;

test.beforeAll(async ({ request }) => {
  test.setTimeout(60_000);
  // An owner on a paid plan, with a key, a shared endpoint and one row of every scaffold list, so
  // each page shows its rows and actions rather than its empty state.
  const owner = await createUser(request, 'Ada Audit', 'a11y', { plan: 'team' });
  const headers = owner.headers;
  const key = await request.post('/api/key', {
    headers,
    data: { name: 'Audit key', scope: ['gateway.invoke', 'usage.read'] },
  });
  expect(key.status(), await key.text()).toBe(201);
  const routeName = `a11y-${Date.now().toString(36)}/agent`;
  const endpoint = await request.post('/api/aiendpoint', {
    headers,
    data: {
      name: 'Audit endpoint',
      route_name: routeName,
      route_endpoint: 'https://upstream.example.com/v1/chat/completions',
      route_type: 'agent',
      isShared: true,
      isPrivate: false,
    },
  });
  expect(endpoint.status(), await endpoint.text()).toBeLessThan(300);
  const endpointId = ((await endpoint.json()) as { data: { id: string } }).data.id;
  const described = await request.patch(`/api/aiendpoint/${endpointId}`, {
    headers,
    data: { description: '<p>An <b>agent</b> that answers questions about your documents.</p>' },
  });
  expect(described.status(), await described.text()).toBeLessThan(300);
  // Two calls through the gateway that an upstream answers 500: the dashboard shows its figures,
  // its latest calls and, no call having succeeded, the checklist with its examples.
  const upstream = await startUpstream();
  try {
    const failing = `a11y-${Date.now().toString(36)}/fail`;
    const failingEndpoint = await request.post('/api/aiendpoint', {
      headers,
      data: { route_name: failing, route_endpoint: `${upstream.url}/fail`, route_type: 'model' },
    });
    expect(failingEndpoint.status(), await failingEndpoint.text()).toBe(201);
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    for (let i = 0; i < 2; i++) {
      const called = await request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${fullKey}`, 'x-route-name': failing },
        data: { messages: [{ role: 'user', content: 'Hi' }] },
      });
      expect(called.status()).toBe(500);
    }
  } finally {
    upstream.server.close();
  }
  const items: Record<string, string> = {};
  for (const kind of ['newitem', 'newitemtwo', 'endpointtest', 'airoute', 'air', 'search']) {
    const item = await request.post(`/api/${kind}`, { headers, data: { name: `First ${kind}` } });
    expect(item.status(), await item.text()).toBe(201);
    items[kind] = ((await item.json()) as { data: { id: string } }).data.id;
  }
  // A fresh sign-up, not verified yet: the only user /signup/verify shows its waiting state to.
  const fresh = await request.post('/api/account', {
    data: {
      name: 'Una Verified',
      email: `a11y-fresh-${Date.now()}@example.test`,
      password: 'a11y-Pass!1',
      confirm_password: '',
    },
  });
  expect(fresh.status(), await fresh.text()).toBeLessThan(300);
  const freshToken = ((await fresh.json()) as { data: { token: string } }).data.token;
  const freshUser = (
    (await (
      await request.get('/api/user', { headers: { Authorization: `Bearer ${freshToken}` } })
    ).json()) as {
      data: Record<string, unknown>;
    }
  ).data;
  seed = {
    owner,
    unverified: { token: freshToken, user: freshUser },
    keyId: ((await key.json()) as { data: { id: string } }).data.id,
    endpointId,
    routeName,
    items,
  };
});

test('every route of the table is audited', () => {
  const audited = new Set([
    ...PUBLIC.map((v) => v.route),
    '/signup/verify',
    ...signedInVisits(seed).map((v) => v.route),
  ]);
  expect(routeTablePaths().filter((path) => !audited.has(path))).toEqual([]);
});

/**
 * Walks a theme's two widths at once, in two contexts (axe is CPU-bound in each page's renderer,
 * and two renderers keep both cores busy): every route at the theme's EVERY_ROUTE_WIDTH, the
 * SAMPLED ones at the other.
 */
async function auditBothWidths(
  browser: Browser,
  theme: TVariant['theme'],
  walk: (
    variant: TVariant,
    name: string,
    found: string[],
    include: (visit: TVisit) => boolean,
  ) => Promise<string[]>,
) {
  const results = await Promise.all(
    WIDTHS.map(async (width) => {
      const found: string[] = [];
      const every = EVERY_ROUTE_WIDTH[theme] === width;
      const include = (visit: TVisit) => every || SAMPLED.has(visit.route);
      const errors = await walk({ theme, width }, `${theme} ${width}px`, found, include);
      return { found, errors };
    }),
  );
  const found = results.flatMap((r) => r.found);
  expect(found, found.join('\n')).toEqual([]);
  expect(
    results.flatMap((r) => r.errors),
    'console errors',
  ).toEqual([]);
}

for (const theme of THEMES) {
  test(`signed out, ${theme}: no serious or critical axe violation`, async ({ browser }) => {
    // axe is CPU-bound: the limits allow for the other worker's browser on the same two cores.
    test.setTimeout(240_000);
    await auditBothWidths(browser, theme, async (variant, name, found, include) => {
      const { context, page, errors } = await openVariant(browser, variant);
      for (const visit of PUBLIC.filter(include)) await audit(page, visit, name, found);
      await context.close();
      // /signup/verify needs a session, of a user whose address is not verified yet.
      const verify = { url: '/signup/verify', route: '/signup/verify' };
      if (!include(verify)) return errors;
      const unverified = await openVariant(browser, variant, seed.unverified);
      await audit(unverified.page, verify, name, found);
      await unverified.context.close();
      return [...errors, ...unverified.errors];
    });
  });

  test(`signed in as an owner on a paid plan, ${theme}: no serious or critical axe violation`, async ({
    browser,
  }) => {
    test.setTimeout(360_000);
    await auditBothWidths(browser, theme, async (variant, name, found, include) => {
      const { context, page, errors } = await openVariant(browser, variant, seed.owner);
      for (const visit of signedInVisits(seed).filter(include)) await audit(page, visit, name, found);
      await context.close();
      return errors;
    });
  });
}
