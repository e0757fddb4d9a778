import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, plan (plan name), detail (a localised sentence: what changed and when). */
export default defineMailTemplate({
  en: (p, c) =>
    renderMail(`Your ${c.productName} plan was updated`, {
      heading: `Hi ${param(p, 'name')}, your plan changed`,
      paragraphs: [`Plan: ${param(p, 'plan')}.`, param(p, 'detail')],
      action: { label: 'View billing', url: `${c.appUrl}/account/billing` },
      footer: 'You receive this because plan update notifications are on in your notification settings.',
    }),
  es: (p, c) =>
    renderMail(`Tu plan de ${c.productName} se actualizó`, {
      heading: `Hola ${param(p, 'name')}, tu plan cambió`,
      paragraphs: [`Plan: ${param(p, 'plan')}.`, param(p, 'detail')],
      action: { label: 'Ver facturación', url: `${c.appUrl}/account/billing` },
      footer: 'Recibes esto porque los avisos de cambios de plan están activados en tus notificaciones.',
    }),
});
