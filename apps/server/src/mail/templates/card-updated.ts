import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, brand, last4. */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Your ${c.productName} payment card was updated`, {
      heading: `Hi ${param(p, 'name')}, your card was updated`,
      paragraphs: [
        `Payments now go to the ${param(p, 'brand')} card ending in ${param(p, 'last4')}.`,
        'If you did not make this change, contact support at once.',
      ],
      action: { label: 'View billing', url: `${c.appUrl}/account/billing` },
      footer: 'You receive this because card update notifications are on in your notification settings.',
    }),
  es: (p, c) =>
    renderMail(`Tu tarjeta de pago de ${c.productName} se actualizó`, {
      heading: `Hola ${param(p, 'name')}, tu tarjeta se actualizó`,
      paragraphs: [
        `Los pagos se cargan ahora a la tarjeta ${param(p, 'brand')} terminada en ${param(p, 'last4')}.`,
        'Si no hiciste este cambio, contacta con soporte de inmediato.',
      ],
      action: { label: 'Ver facturación', url: `${c.appUrl}/account/billing` },
      footer: 'Recibes esto porque los avisos de cambios de tarjeta están activados en tus notificaciones.',
    }),
});
