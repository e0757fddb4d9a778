import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppShell } from '@/layouts/app-shell';
import { clearSession, setSession } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';

// Counts the loads of the shell's overlay code (menu, tooltips, drawer, feedback panel): the shell
// draws without any of it, and each loads when its widget is first used.
const loads = vi.hoisted(() => ({ menu: 0, tooltip: 0, sheet: 0, popover: 0 }));
// The tooltip code arrives when the test says, so it can land while an entry has focus.
const tooltipCode = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive: () => arrive() };
});
vi.mock('@/components/ui/dropdown-menu', async (importOriginal) => {
  loads.menu += 1;
  return importOriginal();
});
vi.mock('@/components/ui/tooltip', async (importOriginal) => {
  loads.tooltip += 1;
  await tooltipCode.arrived;
  return importOriginal();
});
vi.mock('@/components/ui/sheet', async (importOriginal) => {
  loads.sheet += 1;
  return importOriginal();
});
vi.mock('@/components/layout/feedback-popover', async (importOriginal) => {
  loads.popover += 1;
  return importOriginal();
});

function Shell() {
  return (
    <AppShell>
      <p>Page body</p>
    </AppShell>
  );
}

function renderShell() {
  mockFetch({ 'GET /api/account/usage': { status: 200, body: { data: [] } } });
  act(() => setSession({ ...userFixture(), token: 't' }));
  return renderPage(Shell, { route: '/dashboard', path: '/dashboard' });
}

afterEach(() => act(() => clearSession()));

// In order: each test uses one widget for the first time in this file (the code stays loaded).
describe('the app shell', () => {
  it('draws with no overlay code loaded', async () => {
    renderShell();
    expect(await screen.findByText('Page body')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Ada/ })).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-haspopup', 'dialog');
    expect(screen.getByRole('button', { name: 'Give feedback' })).toHaveAttribute('aria-expanded', 'false');
    expect(loads).toEqual({ menu: 0, tooltip: 0, sheet: 0, popover: 0 });
  });

  it('opens the user menu on the first press, then Escape hands focus to its button', async () => {
    const { user } = renderShell();
    await user.click(screen.getByRole('button', { name: /Ada/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    expect(loads.menu).toBe(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(screen.getByRole('button', { name: /Ada/ })).toHaveFocus();
  });

  it('loads the rail tooltips as focus enters the rail, and draws them once focus has left it, never moving focus', async () => {
    const { user } = renderShell();
    const rail = (await screen.findAllByRole('navigation', { name: 'Main navigation' }))[0]!;
    expect(loads.tooltip).toBe(0);
    // Skip link, the rail's logo (the code is asked for), Dashboard, then the registry's entry.
    await user.tab();
    await user.tab();
    expect(within(rail).getByRole('link', { name: 'AIR home' })).toHaveFocus();
    await waitFor(() => expect(loads.tooltip).toBe(1));
    await user.tab();
    await user.tab();
    const registry = within(rail).getByRole('link', { name: 'AI endpoint registry' });
    expect(registry).toHaveFocus();
    // The code arrives while focus is in the rail: nothing is drawn again, focus stays where it is.
    tooltipCode.arrive();
    await user.tab();
    const marketplace = within(rail).getByRole('link', { name: 'Marketplace' });
    expect(marketplace).toHaveFocus();
    expect(marketplace.isConnected).toBe(true);
    expect(screen.queryByRole('tooltip')).toBeNull();
    // Focus leaves the rail: the entries are drawn inside their tooltips, and the next visit has them.
    act(() => marketplace.blur());
    await waitFor(() => expect(marketplace.isConnected).toBe(false));
    act(() => within(rail).getByRole('link', { name: 'AI endpoint registry' }).focus());
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('AI endpoint registry');
    expect(within(rail).getByRole('link', { name: 'AI endpoint registry' })).toHaveAttribute(
      'aria-describedby',
      tooltip.id,
    );
  });

  it('opens the navigation drawer on the first click; Escape closes it and focus is on its button', async () => {
    const { user } = renderShell();
    expect(loads.sheet).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    expect(loads.sheet).toBe(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('fetches the feedback panel when the pointer is over its button, without opening it', async () => {
    renderShell();
    expect(loads.popover).toBe(0);
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Give feedback' }));
    await waitFor(() => expect(loads.popover).toBe(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Give feedback' })).toHaveAttribute('aria-expanded', 'false');
  });
});
