import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/*
 * Lists people can read (issue 26, item 2): a new endpoint is named after its route, the route
 * name is the row's identity, a row opens its endpoint on click and on Enter, and at phone width
 * the sort controls are one menu above the cards.
 */

test('a registry row opens its endpoint on click and on Enter; a new endpoint is named after its route', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Lia Lists', 'lists');
  const stamp = Date.now().toString(36);
  await useSessionOf(page, owner);
  await page.goto('/registry');
  // The empty registry says what to do, and New creates an endpoint named after its route.
  await expect(page.getByText('Register your first endpoint')).toBeVisible();
  await page.getByRole('button', { name: 'New' }).first().click();
  const dialog = page.getByRole('dialog');
  const route = `lia-${stamp}/alpha`;
  await dialog.getByLabel('Route name').fill(route);
  await dialog.getByLabel('Endpoint URL').fill('https://upstream.example.com/v1/chat/completions');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  for (const name of ['beta', 'gamma']) {
    const created = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: {
        route_name: `lia-${stamp}/${name}`,
        route_endpoint: 'https://upstream.example.com/v1',
        route_type: 'model',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  const listed = (await (await request.get('/api/aiendpoint', { headers: owner.headers })).json()) as {
    data: { route_name: string; name: string; id: string }[];
  };
  expect(listed.data.find((e) => e.route_name === route)?.name).toBe(route);
  await page.reload();

  // Click anywhere in the row (not on its controls): the endpoint opens, its route name the title.
  const alpha = listed.data.find((e) => e.route_name === route)!;
  await page.getByRole('row', { name: route }).getByRole('cell').nth(2).click();
  await expect(page).toHaveURL(new RegExp(`/aiendpoints/${alpha.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(route);

  // The keyboard: Tab from the search box reaches the rows; Enter opens the focused one.
  await page.goBack();
  const beta = page.getByRole('row', { name: `lia-${stamp}/beta` });
  await beta.focus();
  await expect(beta).toBeFocused();
  await page.keyboard.press('Enter');
  const betaId = listed.data.find((e) => e.route_name === `lia-${stamp}/beta`)!.id;
  await expect(page).toHaveURL(new RegExp(`/aiendpoints/${betaId}$`));
});

test('at 390 px the sort controls are one menu above the cards', async ({ page, request }) => {
  const owner = await createUser(request, 'Pia Phone', 'phone-sort');
  const stamp = Date.now().toString(36);
  for (const name of ['a-first', 'm-middle', 'z-last']) {
    const created = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: {
        route_name: `pia-${stamp}/${name}`,
        route_endpoint: 'https://upstream.example.com/v1',
        route_type: 'agent',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await useSessionOf(page, owner, 'dark');
  await page.goto('/registry');
  const table = page.getByRole('table', { name: 'My Registry' });
  await expect(table.getByRole('row', { name: `pia-${stamp}/z-last` })).toBeVisible();
  // No column header buttons: one Sort menu.
  await expect(table.getByRole('button', { name: 'Route name' })).toBeHidden();
  const sort = table.getByRole('button', { name: 'Sort' });
  await expect(sort).toBeVisible();
  await sort.click();
  await page.getByRole('menuitemradio', { name: 'Route name, descending' }).click();
  await expect(table.getByRole('button', { name: 'Sorted by Route name, descending' })).toBeVisible();
  const firstCard = table.getByRole('row').nth(1);
  await expect(firstCard).toHaveAccessibleName(`pia-${stamp}/z-last`);
  // The cards do not scroll sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
