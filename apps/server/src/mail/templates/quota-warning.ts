import { renderMail } from '../layout';
import { defineMailTemplate, param, type TMailParams } from '../template';

/** The key a warning is about ('' or absent: the plan quota). */
const keyOf = (p: TMailParams) => p.key_name ?? '';

/**
 * Params: name (the admin), account_name, level (50, 80 or 100), calls, quota, and key_name when
 * the limit is an API key's monthly cap (otherwise the plan's monthly quota).
 */
export default defineMailTemplate({
  en: (p, c) => {
    const full = param(p, 'level') === '100';
    const key = keyOf(p);
    if (key)
      return renderMail(
        full
          ? `${param(p, 'account_name')}: API key ${key} has used all of its monthly calls`
          : `${param(p, 'account_name')}: API key ${key} has used ${param(p, 'level')}% of its monthly calls`,
        {
          heading: `Hi ${param(p, 'name')}, ${full ? "a key's cap is used up" : "a key's cap is running low"}`,
          paragraphs: [
            `The API key ${key} of ${param(p, 'account_name')} has made ${param(p, 'calls')} of the ${param(p, 'quota')} calls its cap allows this month.`,
            full
              ? 'Further calls with it are refused with 429 key_quota_exceeded until the month ends or its cap is raised.'
              : 'When the cap is used up, further calls with this key are refused with 429 key_quota_exceeded until the month ends.',
          ],
          action: { label: 'Manage API keys', url: `${c.appUrl}/account/apikeys` },
          footer: 'You receive this because quota warnings are on in your notification settings.',
        },
      );
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
    const key = keyOf(p);
    if (key)
      return renderMail(
        full
          ? `${param(p, 'account_name')}: la clave de API ${key} ha agotado sus llamadas del mes`
          : `${param(p, 'account_name')}: la clave de API ${key} ha usado el ${param(p, 'level')}% de sus llamadas del mes`,
        {
          heading: `Hola ${param(p, 'name')}, ${full ? 'el límite de una clave se ha agotado' : 'el límite de una clave se está agotando'}`,
          paragraphs: [
            `La clave de API ${key} de ${param(p, 'account_name')} ha hecho ${param(p, 'calls')} de las ${param(p, 'quota')} llamadas que permite su límite este mes.`,
            full
              ? 'Las llamadas siguientes con ella se rechazan con 429 key_quota_exceeded hasta que acabe el mes o se suba su límite.'
              : 'Cuando se agote el límite, las llamadas siguientes con esta clave se rechazarán con 429 key_quota_exceeded hasta que acabe el mes.',
          ],
          action: { label: 'Gestionar claves de API', url: `${c.appUrl}/account/apikeys` },
          footer: 'Recibes esto porque los avisos de cuota están activados en tus notificaciones.',
        },
      );
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
