import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { findPage, mockFetch, renderRoute, resetAuthTestState } from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

describe('forgot password page', () => {
  it('checks the address, sends it and shows a notice that does not reveal whether it exists', async () => {
    const calls = mockFetch({
      'POST /api/auth/password/reset/request': { status: 200, body: { message: 'Done' } },
    });
    const { user } = renderRoute('/forgotpassword');
    await findPage('Forgot password');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('If an account exists for ada@example.com');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'ada@example.com' });
  });

  it('shows the rate limit text from a 429', async () => {
    mockFetch({
      'POST /api/auth/password/reset/request': { status: 429, body: { message: 'Too many attempts' } },
    });
    const { user } = renderRoute('/forgotpassword');
    await findPage('Forgot password');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Too many attempts')).toBeTruthy();
    expect(screen.queryByText('Check your email')).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });
});
