import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, url (APP_URL/magic?token=…). */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Your ${c.productName} sign-in link`, {
      heading: `Hi ${param(p, 'name')}, sign in to ${c.productName}`,
      paragraphs: ['Use the button below to sign in. No password needed.'],
      action: { label: 'Sign in', url: param(p, 'url') },
      note: 'This link expires in 15 minutes and works once. If you did not ask for it, ignore this email: nobody can sign in without it.',
      footer: `${c.productName}: the AI endpoint registry and gateway`,
    }),
  es: (p, c) =>
    renderMail(`Tu enlace para iniciar sesión en ${c.productName}`, {
      heading: `Hola ${param(p, 'name')}, inicia sesión en ${c.productName}`,
      paragraphs: ['Usa el botón de abajo para iniciar sesión. No necesitas contraseña.'],
      action: { label: 'Iniciar sesión', url: param(p, 'url') },
      note: 'Este enlace caduca en 15 minutos y solo funciona una vez. Si no lo pediste, ignora este correo: nadie puede iniciar sesión sin él.',
      footer: `${c.productName}: el registro y pasarela de endpoints de IA`,
    }),
});
