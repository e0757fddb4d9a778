import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.usage_custom_range': 'Choose a first and last day, at most 366 days apart',
    'validation.usage_day': '{field} must be a day from 2000-01-01 to 2100-12-31 (YYYY-MM-DD)',
    'validation.usage_cursor': 'This page link is no longer valid: start from the first page',
  },
  es: {
    'validation.usage_custom_range': 'Elige un primer y un último día, con 366 días de distancia como máximo',
    'validation.usage_day': '{field} debe ser un día entre 2000-01-01 y 2100-12-31 (AAAA-MM-DD)',
    'validation.usage_cursor': 'Este enlace de página ya no es válido: empieza por la primera página',
  },
});
