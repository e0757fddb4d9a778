import { allowRefusals, expect, test } from '../support/fixtures';
import { E2E_BASE_URL } from '../support/env';
import { createUser, withUpstream } from '../support/users';

/*
 * Issue 39 item 4: a page on another origin calls the gateway from Chromium. The browser's
 * preflight is answered without a key; the call is readable only where the key lists the page's
 * origin (allowed_origins, none by default). Before, OPTIONS was a 404 and every page call failed.
 */

// Chromium asks the user before a page reaches a loopback address (Local Network Access); a test
// cannot answer the prompt, so the check is off for this file's browser.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless=new',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-features=LocalNetworkAccessChecks',
    ],
  },
});

const stamp = Date.now().toString(36);
/** A plain page on another origin (served by the test: the console's own pages allow only 'self'; on loopback, as Chromium lets only a local page call a loopback address). */
const PAGE_ORIGIN = 'http://localhost:4999';

test('a page calls the gateway with a key that lists its origin, and not with one that does not', async ({
  page,
  request,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  await withUpstream(async (upstream) => {
    const owner = await createUser(request, 'Cora Cors', 'cors');
    const routeName = `cora-${stamp}/echo`;
    const endpoint = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: { route_name: routeName, route_endpoint: `${upstream.url}/ok`, route_type: 'model' },
    });
    expect(endpoint.status(), await endpoint.text()).toBe(201);
    const keyFor = async (name: string, origins: string[]) => {
      const key = await request.post('/api/key', {
        headers: owner.headers,
        data: { name, scope: ['gateway.invoke'], allowed_origins: origins },
      });
      expect(key.status(), await key.text()).toBe(201);
      return ((await key.json()) as { data: { full_key: string } }).data.full_key;
    };
    const listed = await keyFor('Page key', [PAGE_ORIGIN]);
    const unlisted = await keyFor('Server key', []);

    await page.route(`${PAGE_ORIGIN}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>A page</title>' }),
    );
    await page.goto(`${PAGE_ORIGIN}/`);
    const callFromPage = (key: string) =>
      page.evaluate(
        async ({ url, key, model }) => {
          try {
            const answer = await fetch(url, {
              method: 'POST',
              // Authorization and a JSON body: the browser sends a preflight first.
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
            });
            return { status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining-requests') };
          } catch (error) {
            return { failed: String(error) };
          }
        },
        { url: `${E2E_BASE_URL}/api/v1/chat/completions`, key, model: routeName },
      );
    const allowed = await callFromPage(listed);
    expect(allowed).toMatchObject({ status: 200 });
    expect(Number((allowed as { remaining: string }).remaining)).toBeGreaterThan(0);
    // The browser refuses to hand the page an answer without access-control-allow-origin.
    expect(await callFromPage(unlisted)).toMatchObject({
      failed: expect.stringContaining('Failed to fetch'),
    });
    // What Chromium logs for that refusal, and only that, is expected.
    allowRefusals(consoleErrors, [403]);
    for (let i = consoleErrors.length - 1; i >= 0; i -= 1)
      if (/blocked by CORS policy|net::ERR_FAILED/.test(consoleErrors[i]!)) consoleErrors.splice(i, 1);
  });
});
