import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'auth.magic_sent':
      'If an account exists for this email address, we sent it a sign-in link. It works once, within 15 minutes.',
    'error.magic_link_invalid':
      'This sign-in link is invalid, has expired or has already been used. Please request a new one.',
  },
  es: {
    'auth.magic_sent':
      'Si existe una cuenta con este correo electrónico, le enviamos un enlace para iniciar sesión. Funciona una vez, durante 15 minutos.',
    'error.magic_link_invalid':
      'Este enlace para iniciar sesión no es válido, ha caducado o ya se ha usado. Solicita uno nuevo.',
  },
});
