import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name (the inviter), member_name, member_email, account_name. */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`${param(p, 'member_name')} joined ${param(p, 'account_name')}`, {
      heading: `Hi ${param(p, 'name')}, your invitation was accepted`,
      paragraphs: [
        `${param(p, 'member_name')} (${param(p, 'member_email')}) accepted your invitation and joined ${param(p, 'account_name')}.`,
      ],
      action: { label: 'Manage users', url: `${c.appUrl}/account/users` },
      footer: 'You receive this because invitation alerts are on in your notification settings.',
    }),
  es: (p, c) =>
    renderMail(`${param(p, 'member_name')} se unió a ${param(p, 'account_name')}`, {
      heading: `Hola ${param(p, 'name')}, aceptaron tu invitación`,
      paragraphs: [
        `${param(p, 'member_name')} (${param(p, 'member_email')}) aceptó tu invitación y se unió a ${param(p, 'account_name')}.`,
      ],
      action: { label: 'Gestionar usuarios', url: `${c.appUrl}/account/users` },
      footer: 'Recibes esto porque las alertas de invitaciones están activadas en tus notificaciones.',
    }),
});
