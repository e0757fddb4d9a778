import { PASSWORD_MIN_LENGTH } from '@air/shared/validation';
import type { TFormField } from '@/components/form/types';

/**
 * A new password field (sign-up, invited sign-up, change password): required, at least
 * PASSWORD_MIN_LENGTH characters and "complex" (spec section 5); the server checks the same rules.
 */
export function newPasswordField(label: string, description?: string): TFormField {
  return {
    type: 'password',
    label,
    required: true,
    minLength: PASSWORD_MIN_LENGTH,
    validation: 'complexPassword',
    description,
  };
}
