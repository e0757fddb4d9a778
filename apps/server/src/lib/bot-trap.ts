import { AppError } from './app-error';

/**
 * `confirm_password` is sent hidden and empty by the console: anything in it is a bot. Checked by
 * the sign-up and by an invited person's sign-up.
 */
export function assertNotBot(confirmPassword: string | undefined): void {
  if (confirmPassword) throw new AppError('bad_request', { messageKey: 'error.bot_trap' });
}
