import { registerMessages } from '../../i18n';

/** Texts of `error=` on `/signin/social` after a failed social sign-in, en and es. */
registerMessages({
  en: {
    'social.error.no_account':
      'No account uses the email address of your {provider} account. Sign up first, or sign in another way.',
    'social.error.email_unverified':
      '{provider} has not verified your email address, so it cannot be used to sign in.',
    'social.error.email_missing':
      '{provider} did not share your email address. Allow access to it and try again.',
    'social.error.provider': 'Signing in with {provider} did not work. Please try again.',
    'social.error.expired': 'The sign-in took too long or was started in another browser. Please try again.',
    'social.error.unknown_provider': 'This sign-in provider is not available.',
  },
  es: {
    'social.error.no_account':
      'Ninguna cuenta usa la dirección de correo de tu cuenta de {provider}. Regístrate primero o inicia sesión de otra forma.',
    'social.error.email_unverified':
      '{provider} no ha verificado tu dirección de correo, así que no sirve para iniciar sesión.',
    'social.error.email_missing':
      '{provider} no compartió tu dirección de correo. Permite el acceso y vuelve a intentarlo.',
    'social.error.provider': 'No se pudo iniciar sesión con {provider}. Vuelve a intentarlo.',
    'social.error.expired':
      'El inicio de sesión tardó demasiado o se empezó en otro navegador. Vuelve a intentarlo.',
    'social.error.unknown_provider': 'Este proveedor de inicio de sesión no está disponible.',
  },
});
