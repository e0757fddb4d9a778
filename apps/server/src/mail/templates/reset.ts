import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, url (APP_URL/resetpassword?token=…&email=…). */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Reset your ${c.productName} password`, {
      heading: `Hi ${param(p, 'name')}, reset your password`,
      paragraphs: ['We received a request to reset your password. Choose a new one with the button below.'],
      action: { label: 'Reset password', url: param(p, 'url') },
      note: 'This link expires in 15 minutes and works once. If you did not ask for it, ignore this email: your password stays the same.',
      footer: `${c.productName}: the AI endpoint registry and gateway`,
    }),
  es: (p, c) =>
    renderMail(`Restablece tu contraseña de ${c.productName}`, {
      heading: `Hola ${param(p, 'name')}, restablece tu contraseña`,
      paragraphs: [
        'Hemos recibido una solicitud para restablecer tu contraseña. Elige una nueva con el botón de abajo.',
      ],
      action: { label: 'Restablecer contraseña', url: param(p, 'url') },
      note: 'Este enlace caduca en 15 minutos y solo funciona una vez. Si no lo pediste, ignora este correo: tu contraseña no cambia.',
      footer: `${c.productName}: el registro y pasarela de endpoints de IA`,
    }),
});
