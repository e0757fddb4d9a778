import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.invite_email_required': 'Please enter at least one email address',
    'validation.invite_emails_invalid': 'These addresses are not valid: {emails}',
    'validation.invite_too_many': 'Invite at most {max} addresses at once',
    'error.invite_already_member': 'Already a member of this account: {emails}',
    'error.invite_daily_limit':
      'This account can send at most {limit} invitations a day. Please try again later.',
    'error.invite_expired': 'This invitation has expired. Please ask for a new one.',
    'error.cannot_change_owner': "The owner's role cannot be changed",
    'error.cannot_change_own_role': 'You cannot change your own role',
    'error.remove_needs_admin': 'Only an admin can remove another member',
    'error.invite_sign_in_first':
      'Please sign in with this address first, then open the invitation link again',
    'membership.invited': 'Invitations sent: {count}',
    'membership.invite_deleted': 'Invitations deleted: {count}',
    'membership.role_changed': 'Role updated',
    'membership.removed': 'Member removed from the account',
    'membership.left': 'You left the account',
  },
  es: {
    'validation.invite_email_required': 'Indica al menos una dirección de correo',
    'validation.invite_emails_invalid': 'Estas direcciones no son válidas: {emails}',
    'validation.invite_too_many': 'Invita como máximo {max} direcciones a la vez',
    'error.invite_already_member': 'Ya pertenece a esta cuenta: {emails}',
    'error.invite_daily_limit':
      'Esta cuenta puede enviar como máximo {limit} invitaciones al día. Inténtalo más tarde.',
    'error.invite_expired': 'Esta invitación ha caducado. Pide una nueva.',
    'error.cannot_change_owner': 'El rol del propietario no se puede cambiar',
    'error.cannot_change_own_role': 'No puedes cambiar tu propio rol',
    'error.remove_needs_admin': 'Solo un administrador puede quitar a otro miembro',
    'error.invite_sign_in_first':
      'Inicia sesión con esta dirección y vuelve a abrir el enlace de la invitación',
    'membership.invited': 'Invitaciones enviadas: {count}',
    'membership.invite_deleted': 'Invitaciones eliminadas: {count}',
    'membership.role_changed': 'Rol actualizado',
    'membership.removed': 'Miembro quitado de la cuenta',
    'membership.left': 'Has salido de la cuenta',
  },
});
