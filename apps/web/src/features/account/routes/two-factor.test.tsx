import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import TwoFactorPage from './two-factor';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const QR = 'data:image/png;base64,iVBORw0KGgo=';

function open() {
  return renderPage(<TwoFactorPage />, { path: '/account/2fa', title: 'twoFactor' });
}

describe('/account/2fa', () => {
  it('off → on shows the QR code and the secret → a code shows the backup code once → on', async () => {
    signInAs({ '2fa_enabled': false });
    const calls = mockApi({
      'PUT /api/user/2fa': {
        body: { data: { '2fa_enabled': false, qr_code: QR, secret: 'JBSWY3DPEHPK3PXP' } },
      },
      'POST /api/user/2fa/verify': { body: { data: { backup_code: 'ABCD-EFGH-JKMN-PQRS' } } },
    });
    const { user } = open();
    const toggle = screen.getByRole('switch', { name: 'Enable two-factor authentication' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      QR,
    );
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(calls[0]).toMatchObject({ method: 'PUT', path: '/api/user/2fa', body: { '2fa_enabled': true } });

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Code from your app is required');
    await user.click(screen.getByRole('textbox', { name: /Code from your app/ }));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('backup-code')).toHaveTextContent('ABCD-EFGH-JKMN-PQRS');
    expect(calls[1]).toMatchObject({
      method: 'POST',
      path: '/api/user/2fa/verify',
      body: { code: '123456' },
    });
    expect(getSession().user?.['2fa_enabled']).toBe(true);
    expect(screen.queryByTestId('two-factor-secret')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('backup-code')).toBeNull();
    expect(screen.getByRole('switch', { name: 'Enable two-factor authentication' })).toBeChecked();
  });

  it('reads the secret from an otpauth URI when no plain secret is given', async () => {
    signInAs({ '2fa_enabled': false });
    mockApi({
      'PUT /api/user/2fa': {
        body: {
          data: { qr_code: QR, otpauth_url: 'otpauth://totp/AIR:ada?secret=KRSXG5CTMVRXEZLU&issuer=AIR' },
        },
      },
    });
    const { user } = open();
    await user.click(screen.getByRole('switch'));
    expect(await screen.findByTestId('two-factor-secret')).toHaveTextContent('KRSXG5CTMVRXEZLU');
  });

  it('a wrong code stays on the code step with the message', async () => {
    signInAs({ '2fa_enabled': false });
    mockApi({
      'PUT /api/user/2fa': { body: { data: { qr_code: QR, secret: 'JBSWY3DPEHPK3PXP' } } },
      'POST /api/user/2fa/verify': {
        status: 400,
        body: { message: 'That code is not valid', inputError: 'code' },
      },
    });
    const { user } = open();
    await user.click(screen.getByRole('switch'));
    await user.click(await screen.findByRole('textbox', { name: /Code from your app/ }));
    await user.keyboard('000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid')).toBeInTheDocument();
    expect(screen.queryByTestId('backup-code')).toBeNull();
    expect(getSession().user?.['2fa_enabled']).toBe(false);
  });

  it('switching off disables it', async () => {
    signInAs({ '2fa_enabled': true });
    const calls = mockApi({ 'PUT /api/user/2fa': { body: { data: { '2fa_enabled': false } } } });
    const { user } = open();
    const toggle = screen.getByRole('switch');
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch')).not.toBeChecked());
    expect(calls[0]?.body).toEqual({ '2fa_enabled': false });
    expect(getSession().user?.['2fa_enabled']).toBe(false);
    expect(await screen.findByText('Two-factor authentication is disabled')).toBeInTheDocument();
  });
});
