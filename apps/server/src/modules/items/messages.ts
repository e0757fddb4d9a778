import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'items.created': 'Created',
    'items.updated': 'Saved',
    'items.deleted': 'Deleted',
  },
  es: {
    'items.created': 'Creado',
    'items.updated': 'Guardado',
    'items.deleted': 'Eliminado',
  },
});
