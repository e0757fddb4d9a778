import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSION_MAPS, userFixture } from '@/test/fixtures';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { UserMenu } from '@/components/layout/user-menu';
import { clearSession, setSession, type TSessionUser } from '@/lib/session';

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
