import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import AirouteListPage from './routes/airoute-list';
import NewitemListPage from './routes/newitem-list';
import SearchDetailPage from './routes/search-detail';

afterEach(() => vi.unstubAllGlobals());

const a = { id: '00000000-0000-4000-8000-00000000000a', name: 'Alpha' };
const b = { id: '00000000-0000-4000-8000-00000000000b', name: 'Beta' };

async function deleteBoth(user: ReturnType<typeof renderPage>['user']) {
  await user.click(await screen.findByRole('checkbox', { name: 'Select all rows' }));
  await user.click(
    within(screen.getByRole('group', { name: 'Actions for selected rows' })).getByRole('button', {
      name: 'Delete',
    }),
  );
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
}

describe('name-only scaffold pages', () => {
  it('shows a blank slate with a create button that asks for a name and posts it', async () => {
    const calls = mockFetch({
      'GET /api/newitem': { body: { data: [] } },
      'POST /api/newitem': { body: { data: { id: a.id, name: 'Gamma' } } },
    });
    const { user } = renderPage(NewitemListPage, {
      route: '/newitems',
      path: '/newitems',
      title: 'newitemList',
    });
    expect(await screen.findByText('Nothing here yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText(/Name/, {}, { timeout: 5000 }), 'Gamma');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Gamma' });
  }, 20_000);

  it('deletes newitems with an array of ids in the body', async () => {
    const calls = mockFetch({
      'GET /api/newitem': { body: { data: [a, b] } },
      'DELETE /api/newitem': { body: {} },
    });
    const { user } = renderPage(NewitemListPage, {
      route: '/newitems',
      path: '/newitems',
      title: 'newitemList',
    });
    await screen.findByText('Alpha');
    await deleteBoth(user);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      url: '/api/newitem',
      body: [a.id, b.id],
    });
  });

  it('deletes airoutes through /api/airoute/{ids}', async () => {
    const calls = mockFetch({
      'GET /api/airoute': { body: { data: [a, b] } },
      [`DELETE /api/airoute/${a.id},${b.id}`]: { body: {} },
    });
    const { user } = renderPage(AirouteListPage, {
      route: '/airoutes',
      path: '/airoutes',
      title: 'airouteList',
    });
    await screen.findByText('Alpha');
    await deleteBoth(user);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      url: `/api/airoute/${a.id},${b.id}`,
      body: undefined,
    });
  });

  it('detail reads the first row returned', async () => {
    mockFetch({ [`GET /api/search/${a.id}`]: { body: { data: [a, b] } } });
    renderPage(SearchDetailPage, { route: '/search/:id', path: `/search/${a.id}`, title: 'searchDetail' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Alpha' })).toBeInTheDocument();
    expect(screen.queryByText('Beta')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Searches' })).toHaveAttribute('href', '/search');
  });
});
