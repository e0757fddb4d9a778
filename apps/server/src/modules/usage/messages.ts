import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.usage_custom_range': 'Choose a first and last day, 366 days at most (both included)',
    'validation.usage_day': '{field} must be a day from 2000-01-01 to 2100-12-31 (YYYY-MM-DD)',
    'validation.usage_cursor': 'This page link is no longer valid: start from the first page',
  },
  es: {
    'validation.usage_custom_range':
      'Elige un primer y un último día: 366 días como máximo (ambos incluidos)',
    'validation.usage_day': '{field} debe ser un día entre 2000-01-01 y 2100-12-31 (AAAA-MM-DD)',
    'validation.usage_cursor': 'Este enlace de página ya no es válido: empieza por la primera página',
  },
});
