import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name (the owner), account_name, level (80 or 100), calls, quota. */
export default defineMailTemplate({
  en: (p, c) => {
    const full = param(p, 'level') === '100';
    return renderMail(
      full
        ? `${param(p, 'account_name')} has used all of this month's gateway calls`
        : `${param(p, 'account_name')} has used ${param(p, 'level')}% of this month's gateway calls`,
      {
        heading: `Hi ${param(p, 'name')}, ${full ? 'your quota is used up' : 'your quota is running low'}`,
        paragraphs: [
          `${param(p, 'account_name')} has made ${param(p, 'calls')} of the ${param(p, 'quota')} gateway calls its plan includes this month.`,
          full
            ? 'Further calls are refused with 402 quota_exceeded until the month ends or you upgrade the plan.'
            : 'When the quota is used up, further calls are refused with 402 quota_exceeded until the month ends.',
        ],
        action: { label: 'Upgrade the plan', url: `${c.appUrl}/account/billing` },
        footer: 'You receive this because quota warnings are on in your notification settings.',
      },
    );
  },
  es: (p, c) => {
    const full = param(p, 'level') === '100';
    return renderMail(
      full
        ? `${param(p, 'account_name')} ha agotado las llamadas al gateway de este mes`
        : `${param(p, 'account_name')} ha usado el ${param(p, 'level')}% de las llamadas al gateway de este mes`,
      {
        heading: `Hola ${param(p, 'name')}, ${full ? 'tu cuota se ha agotado' : 'tu cuota se está agotando'}`,
        paragraphs: [
          `${param(p, 'account_name')} ha hecho ${param(p, 'calls')} de las ${param(p, 'quota')} llamadas al gateway que incluye su plan este mes.`,
          full
            ? 'Las llamadas siguientes se rechazan con 402 quota_exceeded hasta que acabe el mes o mejores el plan.'
            : 'Cuando se agote la cuota, las llamadas siguientes se rechazarán con 402 quota_exceeded hasta que acabe el mes.',
        ],
        action: { label: 'Mejorar el plan', url: `${c.appUrl}/account/billing` },
        footer: 'Recibes esto porque los avisos de cuota están activados en tus notificaciones.',
      },
    );
  },
});
