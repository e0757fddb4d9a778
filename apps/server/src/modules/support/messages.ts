import { registerMessages } from '../../i18n';

registerMessages({
  en: {
    'validation.support_name_required': 'Please enter your name',
    'validation.support_message_required': 'Please enter a message',
    'support.sent': 'Message sent. A copy is on its way to your inbox',
    'support.not_configured':
      'The support contact is not set up on this server (SUPPORT_EMAIL). Please ask your administrator',
    'support.too_many': 'You have sent 5 messages in the last hour. Please try again later',
  },
  es: {
    'validation.support_name_required': 'Escribe tu nombre',
    'validation.support_message_required': 'Escribe un mensaje',
    'support.sent': 'Mensaje enviado. Te llega una copia a tu correo',
    'support.not_configured':
      'El contacto de soporte no está configurado en este servidor (SUPPORT_EMAIL). Consulta a tu administrador',
    'support.too_many': 'Has enviado 5 mensajes en la última hora. Inténtalo más tarde',
  },
});
