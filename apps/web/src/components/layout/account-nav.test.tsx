import { afterEach, describe, expect, it } from 'vitest';
import { signInFixture } from '@/test/fixtures';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { permissionsFor } from '@air/shared/permissions';
import { AccountNav, accountNavEntries } from '@/components/layout/account-nav';
import { clearSession, setSession } from '@/lib/session';

const keys = (role: Parameters<typeof permissionsFor>[0], variant: 'full' | 'basic' = 'full') =>
  accountNavEntries(permissionsFor(role), variant).map((entry) => entry.key);

afterEach(() => act(() => clearSession()));

describe('account sub-navigation', () => {
  it('filters entries by permission', () => {
    expect(keys('user')).toEqual(['profile', 'password', 'twoFactor', 'usage', 'notifications']);
    expect(keys('developer')).toEqual([
      'profile',
      'password',
      'twoFactor',
      'usage',
      'notifications',
      'apikeys',
    ]);
    expect(keys('admin')).toEqual([
      'profile',
      'password',
      'twoFactor',
      'usage',
      'notifications',
      'users',
      'webhooks',
    ]);
    expect(keys('owner')).toEqual([
      'profile',
      'password',
      'twoFactor',
      'usage',
      'billing',
      'earnings',
      'payouts',
      'notifications',
      'apikeys',
      'users',
      'webhooks',
    ]);
    expect(accountNavEntries(null, 'full')).toEqual([]);
  });

  it('the reduced variant shows only profile, password and 2FA', () => {
    expect(keys('owner', 'basic')).toEqual(['profile', 'password', 'twoFactor']);
  });

  it('renders only the permitted links for the signed-in user', () => {
    act(() =>
      setSession(signInFixture({ name: 'Dev', role: 'developer', permission: permissionsFor('developer') })),
    );
    render(
      <MemoryRouter initialEntries={['/account/profile']}>
        <AccountNav />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Account settings' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual([
      'Profile',
      'Password',
      'Two-factor authentication',
      'Usage',
      'Notifications',
      'API keys',
    ]);
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
  });

  it('marks Billing as the current section on the upgrade page', () => {
    act(() => setSession(signInFixture({ name: 'Own', role: 'owner', permission: permissionsFor('owner') })));
    render(
      <MemoryRouter initialEntries={['/account/upgrade']}>
        <AccountNav />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Account settings' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Billing']);
    expect(screen.getByRole('combobox')).toHaveValue('/account/billing');
  });
});
