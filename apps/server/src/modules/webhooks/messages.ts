import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.webhook_events': 'Please pick at least one event from the list',
    'validation.webhook_https': 'Webhook URLs must use https:// (plain http:// only to a local address)',
    'validation.webhook_limit': 'An account may have at most {max} webhooks',
    'webhooks.created': 'Webhook created. Copy its signing secret now: it is not shown again',
    'webhooks.updated': 'Webhook updated',
    'webhooks.deleted': 'Webhook deleted',
    'webhooks.test_queued': 'Test event queued',
  },
  es: {
    'validation.webhook_events': 'Elige al menos un evento de la lista',
    'validation.webhook_https':
      'Las URL de webhook deben usar https:// (http:// solo hacia una dirección local)',
    'validation.webhook_limit': 'Una cuenta puede tener como máximo {max} webhooks',
    'webhooks.created': 'Webhook creado. Copia ahora su secreto de firma: no se volverá a mostrar',
    'webhooks.updated': 'Webhook actualizado',
    'webhooks.deleted': 'Webhook eliminado',
    'webhooks.test_queued': 'Evento de prueba en cola',
  },
});
