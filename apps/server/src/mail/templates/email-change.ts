import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/**
 * To the CURRENT address when a change to another one is requested. Params: name, email (the new
 * address), url (APP_URL/forgotpassword), support (the support address).
 */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Your ${c.productName} email is about to change`, {
      heading: `Hi ${param(p, 'name')}, a change of your email was requested`,
      paragraphs: [
        `Someone signed in to your ${c.productName} account asked to change its email to ${param(p, 'email')}. The change happens only when the link sent to that address is opened.`,
        `If this was not you, reset your password now with the button below and report it to ${param(p, 'support')}.`,
      ],
      action: { label: 'Reset my password', url: param(p, 'url') },
      note: 'If you asked for this change, there is nothing to do.',
      footer: `${c.productName}: the AI endpoint registry and gateway`,
    }),
  es: (p, c) =>
    renderMail(`Tu correo de ${c.productName} está a punto de cambiar`, {
      heading: `Hola ${param(p, 'name')}, se ha pedido cambiar tu correo`,
      paragraphs: [
        `Alguien con sesión en tu cuenta de ${c.productName} ha pedido cambiar su correo a ${param(p, 'email')}. El cambio solo ocurre cuando se abre el enlace enviado a esa dirección.`,
        `Si no has sido tú, restablece tu contraseña ahora con el botón de abajo e infórmanos en ${param(p, 'support')}.`,
      ],
      action: { label: 'Restablecer mi contraseña', url: param(p, 'url') },
      note: 'Si pediste este cambio, no tienes que hacer nada.',
      footer: `${c.productName}: el registro y pasarela de endpoints de IA`,
    }),
});
