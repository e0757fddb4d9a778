import { afterEach, describe, expect, it, vi } from 'vitest';
import { PERMISSION_MAPS, userFixture } from '@/test/fixtures';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { UserMenu } from '@/components/layout/user-menu';
import { clearSession, setSession, type TSessionUser } from '@/lib/session';

// Counts the loads of the menu's code: none until the button is used.
const loads = vi.hoisted(() => ({ dropdown: 0 }));
vi.mock('@/components/layout/user-menu-dropdown', async (importOriginal) => {
  loads.dropdown += 1;
  return importOriginal();
});

const base: TSessionUser = userFixture({ role: 'user', permission: { ...PERMISSION_MAPS.user } });

async function openMenu(user: TSessionUser) {
  act(() => setSession({ ...user, token: 't' }));
  const ue = userEvent.setup();
  render(
    <MemoryRouter>
      <UserMenu />
    </MemoryRouter>,
  );
  await ue.click(screen.getByRole('button', { name: /Ada/ }));
  return screen.findByRole('menu');
}

afterEach(() => act(() => clearSession()));

describe('user menu', () => {
  // First in the file: the menu's code is not there yet (later tests find it loaded).
  it('loads its code on first use and opens from the keyboard as a Radix menu does', async () => {
    act(() => setSession({ ...base, accounts: [{ id: 'a1', name: 'One' }], token: 't' }));
    const ue = userEvent.setup();
    render(
      <MemoryRouter>
        <UserMenu />
      </MemoryRouter>,
    );
    const button = screen.getByRole('button', { name: /Ada/ });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(loads.dropdown).toBe(0);
    // Focus fetches the code; the menu stays closed.
    await ue.tab();
    expect(button).toHaveFocus();
    await waitFor(() => expect(loads.dropdown).toBe(1));
    expect(screen.queryByRole('menu')).toBeNull();
    // Enter opens it with focus on the first item; Escape closes it and focus is on the button.
    await ue.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Edit account' })).toHaveFocus());
    expect(screen.getByRole('button', { name: /Ada/ })).toHaveAttribute('aria-expanded', 'true');
    await ue.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(screen.getByRole('button', { name: /Ada/ })).toHaveFocus();
    expect(screen.getByRole('button', { name: /Ada/ })).toHaveAttribute('aria-expanded', 'false');
    expect(loads.dropdown).toBe(1);
  });

  it('hides Switch account for a user with one account', async () => {
    const menu = await openMenu({ ...base, accounts: [{ id: 'a1', name: 'One' }] });
    expect(menu.textContent).toContain('Edit account');
    expect(menu.textContent).toContain('Sign out');
    expect(screen.queryByText('Switch account')).toBeNull();
  });

  it('shows Switch account when the user has more than one account', async () => {
    await openMenu({
      ...base,
      accounts: [
        { id: 'a1', name: 'One' },
        { id: 'a2', name: 'Two' },
      ],
    });
    expect(screen.getByText('Switch account')).toBeTruthy();
  });
});
