import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { mockApi, PERMISSIONS, renderPage, signInAs } from '@/features/account/test/page-harness';
import { changeLocale } from '@/lib/locale';
import { clearSession } from '@/lib/session';
import AccountHomePage from './account-home';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

function cards() {
  return Array.from(document.querySelectorAll('[data-card]')).map((c) => c.getAttribute('data-card'));
}

describe('/account', () => {
  it('an owner sees every card (Billing, Earnings and Payouts are theirs alone)', () => {
    signInAs({ permission: { ...PERMISSIONS.owner } });
    mockApi({});
    renderPage(<AccountHomePage />, { path: '/account', title: 'account' });
    expect(cards()).toEqual([
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
  });

  it.each([
    ['user', ['profile', 'password', 'twoFactor', 'usage', 'notifications']],
    ['developer', ['profile', 'password', 'twoFactor', 'usage', 'notifications', 'apikeys']],
    ['admin', ['profile', 'password', 'twoFactor', 'usage', 'notifications', 'users', 'webhooks']],
  ] as const)('a %s sees only the cards their permission allows', (role, expected) => {
    signInAs({ permission: { ...PERMISSIONS[role] } });
    mockApi({});
    renderPage(<AccountHomePage />, { path: '/account', title: 'account' });
    expect(cards()).toEqual(expected);
  });

  it('offers to create a password and enable 2FA, or to change and manage them', () => {
    signInAs({ has_password: false, '2fa_enabled': false });
    mockApi({});
    renderPage(<AccountHomePage />, { path: '/account', title: 'account' });
    expect(screen.getByRole('link', { name: 'Create password' })).toHaveAttribute(
      'href',
      '/account/password',
    );
    expect(screen.getByRole('link', { name: 'Enable 2FA' })).toHaveAttribute('href', '/account/2fa');
  });

  it('says change and manage when the user has a password and 2FA on', () => {
    signInAs({ has_password: true, '2fa_enabled': true });
    mockApi({});
    renderPage(<AccountHomePage />, { path: '/account', title: 'account' });
    expect(screen.getByRole('link', { name: 'Change password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage 2FA' })).toBeInTheDocument();
  });

  it('speaks Spanish when the locale is es', () => {
    signInAs({ has_password: false });
    mockApi({});
    act(() => changeLocale('es'));
    try {
      renderPage(<AccountHomePage />, { path: '/account', title: 'account' });
      expect(screen.getByRole('link', { name: 'Editar perfil' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Crear contraseña' })).toBeInTheDocument();
    } finally {
      act(() => changeLocale('en'));
    }
  });
});
