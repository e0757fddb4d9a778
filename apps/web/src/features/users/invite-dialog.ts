import type { TFunction } from 'i18next';
import { ZInviteRequest } from '@air/shared/schemas/membership';
import type { TDialogOptions } from '@/app/dialog-provider';

/**
 * The invite form dialog (users page and onboarding): several addresses separated by commas,
 * spaces or new lines, permission defaulting to user. The server refuses a list with bad or
 * member addresses as a whole and names each one on the email field.
 */
export function inviteDialog(t: TFunction, callback: (result: unknown) => void): TDialogOptions {
  return {
    title: t('users:invite.title'),
    description: t('users:invite.description'),
    buttonText: t('users:invite.send'),
    call: 'POST /api/invite',
    fields: {
      email: {
        type: 'textarea',
        label: t('users:invite.emails'),
        placeholder: 'ana@example.com, luis@example.com',
      },
      permission: {
        type: 'select',
        label: t('users:invite.permission'),
        // What each role may do, from the access matrix (@air/shared/permissions), before choosing.
        description: t('users:invite.roles'),
        defaultValue: 'user',
        options: [
          { value: 'user', label: t('users:role.user') },
          { value: 'developer', label: t('users:role.developer') },
          { value: 'admin', label: t('users:role.admin') },
        ],
      },
    },
    schema: ZInviteRequest,
    callback,
  };
}
