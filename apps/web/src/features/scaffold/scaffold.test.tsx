import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemFixture } from '@/test/fixtures';
import { screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import AirListPage from './routes/air-list';
import AirouteListPage from './routes/airoute-list';
import NewitemListPage from './routes/newitem-list';
import SearchDetailPage from './routes/search-detail';

afterEach(() => vi.unstubAllGlobals());

const a = itemFixture({ id: '00000000-0000-4000-8000-00000000000a', name: 'Alpha' });
const b = itemFixture({ id: '00000000-0000-4000-8000-00000000000b', name: 'Beta' });

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
      'POST /api/newitem': { status: 201, body: { data: { ...a, name: 'Gamma' } } },
    });
    const { user } = renderPage(NewitemListPage, {
      route: '/newitems',
      path: '/newitems',
      title: 'newitemList',
    });
    expect(await screen.findByText('Nothing here yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText(/Name/), 'Gamma');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Gamma' });
  }, 20_000);

  it('focuses the first field on open and hands focus back to the opener on Escape', async () => {
    mockFetch({ 'GET /api/newitem': { body: { data: [] } } });
    const { user } = renderPage(NewitemListPage, {
      route: '/newitems',
      path: '/newitems',
      title: 'newitemList',
    });
    await screen.findByText('Nothing here yet');
    const opener = screen.getByRole('button', { name: 'New' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByLabelText(/Name/);
    await waitFor(() => expect(name).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  }, 20_000);

  it('opens the create dialog once for ?create=1 (the AIR placeholder blank slate) and drops the parameter', async () => {
    mockFetch({ 'GET /api/air': { body: { data: [] } } });
    const { router } = renderPage(AirListPage, { route: '/airs', path: '/airs?create=1', title: 'airList' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'New entry in AIRs' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  }, 20_000);

  it('deletes newitems with an array of ids in the body', async () => {
    const calls = mockFetch({
      'GET /api/newitem': { body: { data: [a, b] } },
      'DELETE /api/newitem': { body: { data: { deleted: 2 } } },
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
      'DELETE /api/airoute/:ids': { body: { data: { deleted: 2 } } },
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

  it('detail shows the item', async () => {
    mockFetch({ 'GET /api/search/:id': { body: { data: a } } });
    renderPage(SearchDetailPage, { route: '/search/:id', path: `/search/${a.id}`, title: 'searchDetail' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Alpha' })).toBeInTheDocument();
    expect(screen.queryByText('Beta')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Searches' })).toHaveAttribute('href', '/search');
  });
});
