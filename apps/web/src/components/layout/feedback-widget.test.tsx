import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { FeedbackWidget, FEEDBACK_CLOSE_DELAY } from '@/components/layout/feedback-widget';
import { mockFetch, renderPage } from '@/test/render-page';

const open = async () => {
  const rendered = renderPage(FeedbackWidget, { route: '/dashboard', path: '/dashboard' });
  await rendered.user.click(screen.getByRole('button', { name: 'Give feedback' }));
  expect(await screen.findByRole('heading', { name: 'How is AIR working for you?' })).toBeInTheDocument();
  // The form itself loads after the shell.
  await screen.findByRole('radiogroup', { name: 'Rating' });
  return rendered;
};

describe('the feedback widget', () => {
  it(
    'sends a rating and a comment, thanks in the panel (no toast), and closes after 3 s',
    { timeout: 20_000 },
    async () => {
      const calls = mockFetch({ 'POST /api/feedback': { status: 201, body: { message: 'Stored' } } });
      const { user } = await open();
      const send = await screen.findByRole('button', { name: 'Send feedback' });
      expect(send).toBeDisabled();
      expect(screen.getByRole('radiogroup', { name: 'Rating' })).toBeInTheDocument();
      const neutral = screen.getByRole('radio', { name: 'Neutral' });
      expect(neutral).toHaveAttribute('aria-checked', 'false');
      await user.click(neutral);
      expect(neutral).toHaveAttribute('aria-checked', 'true');
      expect(screen.getByRole('radio', { name: 'Positive' })).toHaveAttribute('aria-checked', 'false');
      await user.click(screen.getByRole('textbox', { name: 'Comment' }));
      await user.paste('Fine so far');
      await user.click(send);
      expect(await screen.findByRole('status')).toHaveTextContent('Thank you for your feedback!');
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        { method: 'POST', url: '/api/feedback', body: { rating: 'neutral', comment: 'Fine so far' } },
      ]);
      // The toaster loads on demand: a toast would be up within the second.
      await expect(screen.findByText('Stored', {}, { timeout: 1_000 })).rejects.toThrow();
      await waitFor(
        () => expect(screen.queryByRole('heading', { name: 'How is AIR working for you?' })).toBeNull(),
        { timeout: FEEDBACK_CLOSE_DELAY + 2_000 },
      );
      // Opened again: a fresh form.
      await user.click(screen.getByRole('button', { name: 'Give feedback' }));
      expect(await screen.findByRole('radio', { name: 'Neutral' })).toHaveAttribute('aria-checked', 'false');
      expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
      expect(screen.getByRole('button', { name: 'Send feedback' })).toBeDisabled();
    },
  );

  it('keeps the rating and the comment while the panel is closed', async () => {
    mockFetch({});
    const { user } = await open();
    await user.click(screen.getByRole('radio', { name: 'Negative' }));
    await user.click(screen.getByRole('textbox', { name: 'Comment' }));
    await user.paste('Slow today');
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'How is AIR working for you?' })).toBeNull(),
    );
    await user.click(screen.getByRole('button', { name: 'Give feedback' }));
    expect(await screen.findByRole('radio', { name: 'Negative' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('Slow today');
    expect(screen.getByRole('button', { name: 'Send feedback' })).toBeEnabled();
  });

  it('refuses a comment over 5000 characters with the schema message, without sending', async () => {
    const calls = mockFetch({ 'POST /api/feedback': { status: 201, body: { message: 'Stored' } } });
    const { user } = await open();
    await user.click(screen.getByRole('radio', { name: 'Positive' }));
    const comment = screen.getByRole('textbox', { name: 'Comment' });
    await user.click(comment);
    await user.paste('x'.repeat(5001));
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Comment must be at most 5000 characters')).toBeInTheDocument();
    expect(comment).toHaveAttribute('aria-invalid', 'true');
    expect(comment).toHaveAccessibleDescription('Comment must be at most 5000 characters');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
