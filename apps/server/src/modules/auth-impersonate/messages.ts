import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'error.impersonation_invalid':
      'This impersonation link is invalid, has expired or has already been used.',
  },
  es: {
    'error.impersonation_invalid': 'Este enlace de suplantación no es válido, ha caducado o ya se ha usado.',
  },
});
