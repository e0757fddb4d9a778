import { renderMail } from '../layout';
import { defineMailTemplate, param, type TMailParams } from '../template';

/*
 * A limit in tokens or money at 50, 80 or 100 % (issue 42 item 3). Params: name (the admin),
 * account_name, level, limit (`key_tokens`, `key_spend` or `spend_limit`), used and cap as they
 * read (tokens a minute, or amounts with the currency's symbol), key_name for a key's limit.
 */

type TTexts = {
  subject: (p: TMailParams, full: boolean) => string;
  heading: (p: TMailParams, full: boolean) => string;
  used: (p: TMailParams) => string;
  next: (full: boolean) => string;
  action: { label: string; path: string };
};

function en(limit: string): TTexts {
  const what = (p: TMailParams) => `${param(p, 'account_name')}: API key ${param(p, 'key_name')}`;
  if (limit === 'key_tokens')
    return {
      subject: (p, full) =>
        full
          ? `${what(p)} is using all of its tokens per minute`
          : `${what(p)} is using ${param(p, 'level')}% of its tokens per minute`,
      heading: (p, full) =>
        `Hi ${param(p, 'name')}, ${full ? "a key's token limit is binding" : "a key's token limit is getting close"}`,
      used: (p) =>
        `Over the last ten minutes the API key ${param(p, 'key_name')} used ${param(p, 'used')} tokens a minute on average, of the ${param(p, 'cap')} its limit allows.`,
      next: (full) =>
        full
          ? 'Calls that would pass the limit are refused with 429 token_rate_limit_exceeded until the minute ends. Raise its tokens per minute if this is expected.'
          : 'Calls that would pass the limit are refused with 429 token_rate_limit_exceeded until the minute ends.',
      action: { label: 'Manage API keys', path: '/account/apikeys' },
    };
  if (limit === 'key_spend')
    return {
      subject: (p, full) =>
        full
          ? `${what(p)} has spent its monthly budget`
          : `${what(p)} has spent ${param(p, 'level')}% of its monthly budget`,
      heading: (p, full) =>
        `Hi ${param(p, 'name')}, ${full ? "a key's budget is spent" : "a key's budget is running low"}`,
      used: (p) =>
        `The API key ${param(p, 'key_name')} of ${param(p, 'account_name')} has spent ${param(p, 'used')} of its ${param(p, 'cap')} marketplace budget this month.`,
      next: (full) =>
        full
          ? 'Its priced calls are refused with 402 key_budget_exceeded until the month ends or its budget is raised.'
          : 'When the budget is spent, its priced calls are refused with 402 key_budget_exceeded until the month ends.',
      action: { label: 'Manage API keys', path: '/account/apikeys' },
    };
  return {
    subject: (p, full) =>
      full
        ? `${param(p, 'account_name')} has reached its marketplace spend limit`
        : `${param(p, 'account_name')} has spent ${param(p, 'level')}% of its marketplace spend limit`,
    heading: (p, full) =>
      `Hi ${param(p, 'name')}, ${full ? 'your spend limit is reached' : 'your spend limit is getting close'}`,
    used: (p) =>
      `${param(p, 'account_name')} has spent ${param(p, 'used')} of its ${param(p, 'cap')} marketplace spend limit this month.`,
    next: (full) =>
      full
        ? 'Priced calls are refused with 402 spend_limit_reached until the month ends or you raise the limit.'
        : 'When the limit is reached, priced calls are refused with 402 spend_limit_reached until the month ends.',
    action: { label: 'Raise the limit', path: '/account/usage' },
  };
}

function es(limit: string): TTexts {
  const what = (p: TMailParams) => `${param(p, 'account_name')}: la clave de API ${param(p, 'key_name')}`;
  if (limit === 'key_tokens')
    return {
      subject: (p, full) =>
        full
          ? `${what(p)} usa todos sus tokens por minuto`
          : `${what(p)} usa el ${param(p, 'level')}% de sus tokens por minuto`,
      heading: (p, full) =>
        `Hola ${param(p, 'name')}, ${full ? 'el límite de tokens de una clave se está aplicando' : 'una clave se acerca a su límite de tokens'}`,
      used: (p) =>
        `En los últimos diez minutos la clave de API ${param(p, 'key_name')} usó de media ${param(p, 'used')} tokens por minuto, de los ${param(p, 'cap')} que permite su límite.`,
      next: (full) =>
        full
          ? 'Las llamadas que superarían el límite se rechazan con 429 token_rate_limit_exceeded hasta que acabe el minuto. Sube sus tokens por minuto si es lo esperado.'
          : 'Las llamadas que superarían el límite se rechazan con 429 token_rate_limit_exceeded hasta que acabe el minuto.',
      action: { label: 'Gestionar claves de API', path: '/account/apikeys' },
    };
  if (limit === 'key_spend')
    return {
      subject: (p, full) =>
        full
          ? `${what(p)} ha gastado su presupuesto del mes`
          : `${what(p)} ha gastado el ${param(p, 'level')}% de su presupuesto del mes`,
      heading: (p, full) =>
        `Hola ${param(p, 'name')}, ${full ? 'el presupuesto de una clave se ha agotado' : 'el presupuesto de una clave se está agotando'}`,
      used: (p) =>
        `La clave de API ${param(p, 'key_name')} de ${param(p, 'account_name')} ha gastado ${param(p, 'used')} de su presupuesto de ${param(p, 'cap')} en el marketplace este mes.`,
      next: (full) =>
        full
          ? 'Sus llamadas de pago se rechazan con 402 key_budget_exceeded hasta que acabe el mes o se suba su presupuesto.'
          : 'Cuando se agote el presupuesto, sus llamadas de pago se rechazarán con 402 key_budget_exceeded hasta que acabe el mes.',
      action: { label: 'Gestionar claves de API', path: '/account/apikeys' },
    };
  return {
    subject: (p, full) =>
      full
        ? `${param(p, 'account_name')} ha alcanzado su límite de gasto en el marketplace`
        : `${param(p, 'account_name')} ha gastado el ${param(p, 'level')}% de su límite de gasto en el marketplace`,
    heading: (p, full) =>
      `Hola ${param(p, 'name')}, ${full ? 'has alcanzado tu límite de gasto' : 'te acercas a tu límite de gasto'}`,
    used: (p) =>
      `${param(p, 'account_name')} ha gastado ${param(p, 'used')} de su límite de gasto de ${param(p, 'cap')} en el marketplace este mes.`,
    next: (full) =>
      full
        ? 'Las llamadas de pago se rechazan con 402 spend_limit_reached hasta que acabe el mes o subas el límite.'
        : 'Cuando se alcance el límite, las llamadas de pago se rechazarán con 402 spend_limit_reached hasta que acabe el mes.',
    action: { label: 'Subir el límite', path: '/account/usage' },
  };
}

function render(texts: TTexts, footer: string) {
  return (p: TMailParams, c: { appUrl: string }) => {
    const full = param(p, 'level') === '100';
    return renderMail(texts.subject(p, full), {
      heading: texts.heading(p, full),
      paragraphs: [texts.used(p), texts.next(full)],
      action: { label: texts.action.label, url: `${c.appUrl}${texts.action.path}` },
      footer,
    });
  };
}

export default defineMailTemplate({
  en: (p, c) =>
    render(
      en(param(p, 'limit')),
      'You receive this because quota warnings are on in your notification settings.',
    )(p, c),
  es: (p, c) =>
    render(
      es(param(p, 'limit')),
      'Recibes esto porque los avisos de cuota están activados en tus notificaciones.',
    )(p, c),
});
