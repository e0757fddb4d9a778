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
    const toggle = await screen.findByRole('switch', { name: 'Enable two-factor authentication' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      QR,
    );
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(calls[0]).toMatchObject({ method: 'PUT', path: '/api/user/2fa', body: { '2fa_enabled': true } });

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter the 6-character code');
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
    expect(await screen.findByRole('switch', { name: 'Two-factor authentication is on' })).toBeChecked();
  });

  it('shows the secret the server answers for typing by hand', async () => {
    signInAs({ '2fa_enabled': false });
    mockApi({
      'PUT /api/user/2fa': {
        body: {
          data: { '2fa_enabled': true, qr_code: QR, secret: 'KRSXG5CTMVRXEZLU' },
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
      'PUT /api/user/2fa': {
        body: { data: { '2fa_enabled': true, qr_code: QR, secret: 'JBSWY3DPEHPK3PXP' } },
      },
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

  it('switching off asks for a code, then disables it', async () => {
    signInAs({ '2fa_enabled': true });
    const calls = mockApi({ 'PUT /api/user/2fa': { body: { data: { '2fa_enabled': false } } } });
    const { user } = open();
    // The label follows the state: "Enable …" under a checked switch read as the opposite.
    const toggle = screen.getByRole('switch', { name: 'Two-factor authentication is on' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter the code');
    await user.type(screen.getByRole('textbox', { name: /Code from your app or backup code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Enable two-factor authentication' })).not.toBeChecked(),
    );
    expect(calls[0]?.body).toEqual({ '2fa_enabled': false, code: '123456' });
    expect(getSession().user?.['2fa_enabled']).toBe(false);
    expect(await screen.findByText('Two-factor authentication is disabled')).toBeInTheDocument();
  });
});
