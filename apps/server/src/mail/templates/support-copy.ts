import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** The user's copy of a support message. Params: as support_request. */
export default defineMailTemplate({
  en: (p) =>
    renderMail('We received your message', {
      heading: `Hi ${param(p, 'user_name')}, we received your message`,
      paragraphs: [
        'Support will answer at the contact address you gave. This is what you sent:',
        param(p, 'message'),
        `Contact: ${param(p, 'contact_name')} <${param(p, 'contact_email')}>, account ${param(p, 'account_name')}, plan ${param(p, 'plan')}.`,
      ],
      footer: 'You receive this copy because you wrote to support from the AIR help page.',
    }),
  es: (p) =>
    renderMail('Hemos recibido tu mensaje', {
      heading: `Hola ${param(p, 'user_name')}, hemos recibido tu mensaje`,
      paragraphs: [
        'Soporte te responderá en la dirección de contacto que indicaste. Esto es lo que enviaste:',
        param(p, 'message'),
        `Contacto: ${param(p, 'contact_name')} <${param(p, 'contact_email')}>, cuenta ${param(p, 'account_name')}, plan ${param(p, 'plan')}.`,
      ],
      footer: 'Recibes esta copia porque escribiste a soporte desde la página de ayuda de AIR.',
    }),
});
