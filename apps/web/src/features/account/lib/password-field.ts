import type { TFormField } from '@/components/form/types';

/**
 * A new password field (sign-up, invited sign-up, change password). Its rules (required, at least
 * PASSWORD_MIN_LENGTH characters, "complex": spec section 5) are the shared ZStrongPassword's.
 */
export function newPasswordField(label: string, description?: string): TFormField {
  return {
    type: 'password',
    label,
    autoComplete: 'new-password',
    description,
  };
}
