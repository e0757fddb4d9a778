import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * A provider's marketplace page (issue 44 item 4): the owner writes its profile under Account >
 * Profile; another account calls its shared endpoint through the gateway; signed out, the catalog's
 * provider link (by keyboard) opens /marketplace/{provider} with the profile, the combined figures
 * of those calls and the endpoint's card; a slug with nothing listed is not found.
 */

const stamp = Date.now().toString(36);

test('a provider page: profile, combined figures, endpoints; not found; axe', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  await withUpstream(async (upstream) => {
    const provider = await createUser(request, 'Paz Provider', 'prov-page', {
      accountName: `Paz Labs ${stamp}`,
    });
    const caller = await createUser(request, 'Cruz Caller', 'prov-call');
    const slug = `paz-${stamp}`;
    const routeName = `${slug}/echo`;
    await createSharedEndpoint(request, provider, {
      name: 'Echo Model',
      routeName,
      url: `${upstream.url}/ok`,
      description: `<p>Echoes ${stamp}.</p>`,
    });

    // The owner writes the profile in the account's settings.
    await useSessionOf(page, provider);
    await page.goto('/account/profile');
    const profile = page.getByRole('textbox', { name: 'About your account as a provider' });
    await profile.fill(`We host echo models.\nSince ${stamp}.`);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved').first()).toBeVisible();
    await page.reload();
    await expect(profile).toHaveValue(`We host echo models.\nSince ${stamp}.`);

    // Another account calls the endpoint three times through the gateway.
    const key = await request.post('/api/key', {
      headers: caller.headers,
      data: { name: 'Provider page key', scope: ['gateway.invoke'] },
    });
    expect(key.status(), await key.text()).toBe(201);
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    for (let i = 0; i < 3; i++) {
      const answer = await request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${fullKey}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'echo' }] },
      });
      expect(answer.status(), await answer.text()).toBe(200);
    }
    // Metering writes in batches.
    await expect
      .poll(
        async () => {
          const answer = await request.get(`/api/marketplace/${slug}`);
          return ((await answer.json()) as { data: { stats: { calls_7d: number } } }).data.stats.calls_7d;
        },
        { timeout: 15_000 },
      )
      .toBe(3);

    // Signed out: from the catalog, the provider link by keyboard.
    const visitor = await browser.newContext();
    const out = await visitor.newPage();
    await out.goto('/marketplace');
    await out.getByRole('searchbox', { name: 'Search' }).fill(`echoes ${stamp}`);
    const card = out.getByTestId('catalog-card').filter({ hasText: routeName });
    await expect(card).toHaveCount(1);
    await card.getByRole('link', { name: `Paz Labs ${stamp}` }).focus();
    await out.keyboard.press('Enter');
    await expect(out).toHaveURL(new RegExp(`/marketplace/${slug}$`));
    await expect(out.getByRole('heading', { level: 1, name: `Paz Labs ${stamp}` })).toBeVisible();
    await expect(out).toHaveTitle(`Paz Labs ${stamp} on the AIR marketplace | AIR`);
    await expect(out.getByTestId('provider-profile')).toHaveText(`We host echo models. Since ${stamp}.`);
    const figures = out.getByTestId('figures');
    await expect(figures.getByRole('row', { name: /^Calls/ })).toHaveText(/Calls\s*3\s*3/);
    await expect(figures.getByRole('row', { name: /^Success rate/ })).toHaveText(/100%\s*100%/);
    await expect(figures.getByRole('row', { name: /^Uptime/ })).toHaveText(/100%\s*100%/);
    await expect(figures.getByRole('row', { name: /^Median latency/ })).toHaveText(/\d+ ms/);
    await expect(out.getByRole('heading', { level: 2, name: '1 shared endpoint' })).toBeVisible();
    await expect(out.getByTestId('catalog-card')).toHaveCount(1);
    await expect(out.getByTestId('catalog-card')).toContainText(routeName);

    const { violations } = await new AxeBuilder({ page: out })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .options({ resultTypes: ['violations'] })
      .setLegacyMode(true)
      .analyze();
    expect(
      violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id),
    ).toEqual([]);

    // Nothing listed under a slug: not found.
    await out.goto(`/marketplace/nobody-${stamp}`);
    await expect(out.getByText('Provider not found')).toBeVisible();
    await visitor.close();
  });
});
