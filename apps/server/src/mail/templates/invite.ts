import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

// The role with its article: "as a developer", "as an admin".
const ROLE_EN: Record<string, string> = {
  admin: 'an admin',
  developer: 'a developer',
  user: 'a member',
};

const ROLE_ES: Record<string, string> = {
  admin: 'administrador',
  developer: 'desarrollador',
  user: 'usuario',
};

/** Params: inviter_name, account_name, role (admin|developer|user), url (APP_URL/signup/user?token=…), days. */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`${param(p, 'inviter_name')} invited you to ${param(p, 'account_name')} on ${c.productName}`, {
      heading: `Join ${param(p, 'account_name')} on ${c.productName}`,
      paragraphs: [
        // The account's name often ends in "account" already (the default is "Alice Doe's account").
        `${param(p, 'inviter_name')} invited you to join ${param(p, 'account_name')} as ${ROLE_EN[param(p, 'role')] ?? param(p, 'role')}.`,
        `${c.productName} is the registry and gateway for the account's AI endpoints.`,
      ],
      action: { label: 'Accept the invitation', url: param(p, 'url') },
      note: `This invitation expires in ${param(p, 'days')} days and works once. If you did not expect it, you can ignore this email.`,
      footer: `${c.productName}: the AI endpoint registry and gateway`,
    }),
  es: (p, c) =>
    renderMail(`${param(p, 'inviter_name')} te invitó a ${param(p, 'account_name')} en ${c.productName}`, {
      heading: `Únete a ${param(p, 'account_name')} en ${c.productName}`,
      paragraphs: [
        `${param(p, 'inviter_name')} te invitó a unirte a ${param(p, 'account_name')} como ${ROLE_ES[param(p, 'role')] ?? param(p, 'role')}.`,
        `${c.productName} es el registro y la pasarela de los endpoints de IA de la cuenta.`,
      ],
      action: { label: 'Aceptar la invitación', url: param(p, 'url') },
      note: `Esta invitación caduca en ${param(p, 'days')} días y solo funciona una vez. Si no la esperabas, puedes ignorar este correo.`,
      footer: `${c.productName}: el registro y pasarela de endpoints de IA`,
    }),
});
