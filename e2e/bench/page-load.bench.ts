import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL } from '../support/env';
import { createUser, useSessionOf } from '../support/users';

/*
 * How long a signed-in page takes to show its data after a click in the console (decision 037),
 * kept out of `npm test`: `npm run bench:console` (after `npm run build`). Each page is reached
 * from /account/profile by a client-side navigation, as a click in the rail does, under two
 * conditions: 100 ms of network latency (a server across a network, HTTP/1.1) and the CPU slowed
 * six times (a slow laptop). Printed: the medians of 5 rounds of the moment the page's data shows
 * and of its first data request, in ms after the navigation.
 */

const PAGES = [
  { path: '/registry', api: '/api/aiendpoint', shown: 'main table:not([aria-busy]) tbody tr' },
  {
    path: '/dashboard',
    api: '/api/account/overview',
    shown: '[data-testid$="-tile"], [data-testid=get-started]',
  },
  { path: '/account/apikeys', api: '/api/key', shown: 'main table:not([aria-busy]) tbody tr' },
] as const;
const CONDITIONS = [
  { name: 'latency 100 ms', latency: 100, cpu: 1 },
  { name: 'CPU 6x slower', latency: 0, cpu: 6 },
] as const;
const ROUNDS = 5;

const results = new Map<string, { shown: number[]; request: number[] }>();

async function measure(page: Page, path: string, api: string, shown: string) {
  // Both figures from the page's own clock, from the moment of the navigation.
  return page.evaluate(
    ([to, selector, apiPath]) =>
      new Promise<{ shown: number; request: number }>((resolve) => {
        // The buffer holds 250 entries, and the page before filled it: room for this page's.
        performance.clearResourceTimings();
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (!document.querySelector(selector)) return;
          observer.disconnect();
          const shownAt = performance.now() - start;
          const first = performance
            .getEntriesByType('resource')
            .find((entry) => entry.startTime >= start && new URL(entry.name).pathname === apiPath);
          resolve({ shown: shownAt, request: first ? first.startTime - start : Number.NaN });
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        history.pushState({}, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }),
    [path, shown, api] as const,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const condition of CONDITIONS)
  for (const { path, api, shown } of PAGES)
    test(`${path}, ${condition.name}`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      for (let round = 0; round < ROUNDS; round++) {
        // A new account per round with an endpoint and a key, so every list has a row to show.
        const owner = await createUser(request, 'Page Load', 'pageload');
        const endpoint = await request.post('/api/aiendpoint', {
          headers: owner.headers,
          data: {
            route_name: `load-${Date.now().toString(36)}/a`,
            route_endpoint: 'https://upstream.example.com/v1',
            route_type: 'model',
          },
        });
        expect(endpoint.status()).toBe(201);
        const key = await request.post('/api/key', {
          headers: owner.headers,
          data: { name: 'load', scope: ['gateway.invoke'] },
        });
        expect(key.status()).toBe(201);
        // A context of its own per round: the stored session is seeded once per tab.
        const context = await browser.newContext({ baseURL: E2E_BASE_URL });
        const page = await context.newPage();
        await useSessionOf(page, owner);
        await page.goto('/account/profile');
        await page.getByRole('heading', { level: 1 }).waitFor();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
        if (condition.latency > 0)
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: condition.latency,
            downloadThroughput: -1,
            uploadThroughput: -1,
          });
        const figures = await measure(page, path, api, shown);
        const entry = results.get(test.info().title) ?? { shown: [], request: [] };
        entry.shown.push(figures.shown);
        entry.request.push(figures.request);
        results.set(test.info().title, entry);
        await context.close();
      }
    });

test.afterAll(() => {
  const lines = ['| page, condition | data shown (ms) | first data request (ms) |', '|---|---|---|'];
  for (const [title, { shown, request }] of results)
    lines.push(
      `| ${title} | ${Math.round(median(shown))} (${shown.map(Math.round).join(', ')}) | ${Math.round(median(request))} |`,
    );
  console.log(`\nMedians of ${ROUNDS} rounds (each round's figure in brackets)\n${lines.join('\n')}`);
});
