import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, ip, device (user agent), time (ISO). */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`New sign-in to your ${c.productName} account`, {
      heading: `Hi ${param(p, 'name')}, we noticed a new sign-in`,
      paragraphs: [
        `Your account was signed into from a new device or network.`,
        `Time: ${new Date(param(p, 'time')).toUTCString()}`,
        `IP address: ${param(p, 'ip')}`,
        `Device: ${param(p, 'device')}`,
        'If this was you, there is nothing to do. If not, change your password at once.',
      ],
      action: { label: 'Change password', url: `${c.appUrl}/account/password` },
      footer: 'You receive this because new sign-in alerts are on in your notification settings.',
    }),
  es: (p, c) =>
    renderMail(`Nuevo inicio de sesión en tu cuenta de ${c.productName}`, {
      heading: `Hola ${param(p, 'name')}, detectamos un nuevo inicio de sesión`,
      paragraphs: [
        'Se inició sesión en tu cuenta desde un dispositivo o red nuevos.',
        `Fecha: ${new Date(param(p, 'time')).toUTCString()}`,
        `Dirección IP: ${param(p, 'ip')}`,
        `Dispositivo: ${param(p, 'device')}`,
        'Si fuiste tú, no tienes que hacer nada. Si no, cambia tu contraseña de inmediato.',
      ],
      action: { label: 'Cambiar contraseña', url: `${c.appUrl}/account/password` },
      footer:
        'Recibes esto porque las alertas de nuevos inicios de sesión están activadas en tus notificaciones.',
    }),
});
