import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, url (APP_URL/signup/verify?token=…). */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Verify your email address for ${c.productName}`, {
      heading: `Hi ${param(p, 'name')}, please verify your email address`,
      paragraphs: [
        `Confirm that this is your email address to finish setting up your ${c.productName} account.`,
      ],
      action: { label: 'Verify email address', url: param(p, 'url') },
      note: 'This link expires in 15 minutes and works once. If you did not sign up, you can ignore this email.',
      footer: `${c.productName}: the AI endpoint registry and gateway`,
    }),
  es: (p, c) =>
    renderMail(`Verifica tu correo electrónico en ${c.productName}`, {
      heading: `Hola ${param(p, 'name')}, verifica tu correo electrónico`,
      paragraphs: [
        `Confirma que esta es tu dirección de correo para terminar de configurar tu cuenta de ${c.productName}.`,
      ],
      action: { label: 'Verificar correo electrónico', url: param(p, 'url') },
      note: 'Este enlace caduca en 15 minutos y solo funciona una vez. Si no te registraste, puedes ignorar este correo.',
      footer: `${c.productName}: el registro y pasarela de endpoints de IA`,
    }),
});
