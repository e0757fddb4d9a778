import { renderMail } from '../layout';
import { defineMailTemplate, param } from '../template';

/** Params: name, kind (renewed | payment_failed | action_required | canceled), plan, amount (formatted). */
export default defineMailTemplate({
  en: (p, c) => {
    const kind = param(p, 'kind');
    const plan = param(p, 'plan');
    const amount = param(p, 'amount');
    const text = {
      renewed: [
        `Your ${plan} subscription renewed`,
        `We charged ${amount} for the new period. The invoice is in Billing.`,
      ],
      payment_failed: [
        `Payment for your ${plan} subscription failed`,
        `We could not charge ${amount}. We will try again; update your card in Billing to pay now.`,
      ],
      action_required: [
        `Your bank needs you to authorize the payment for your ${plan} subscription`,
        `The renewal charge of ${amount} is waiting for your authorization. Open Billing and choose Authorize payment to complete it with your bank.`,
      ],
      canceled: [
        `Your ${plan} subscription was cancelled`,
        `After several failed attempts to charge ${amount}, the subscription was cancelled and your account now has the free plan's limits. Choose a plan in Billing to continue.`,
      ],
    }[kind] ?? [`Billing update`, amount];
    return renderMail(`${c.productName}: ${text[0]}`, {
      heading: `Hi ${param(p, 'name')}`,
      paragraphs: [`${text[0]}.`, text[1]!],
      action: { label: 'Open billing', url: `${c.appUrl}/account/billing` },
      footer: 'You receive this because you own an account with a paid plan.',
    });
  },
  es: (p, c) => {
    const kind = param(p, 'kind');
    const plan = param(p, 'plan');
    const amount = param(p, 'amount');
    const text = {
      renewed: [
        `Tu suscripción ${plan} se renovó`,
        `Cobramos ${amount} por el nuevo periodo. La factura está en Facturación.`,
      ],
      payment_failed: [
        `Falló el pago de tu suscripción ${plan}`,
        `No pudimos cobrar ${amount}. Lo intentaremos de nuevo; actualiza tu tarjeta en Facturación para pagar ahora.`,
      ],
      action_required: [
        `Tu banco necesita que autorices el pago de tu suscripción ${plan}`,
        `El cobro de renovación de ${amount} espera tu autorización. Abre Facturación y elige Autorizar pago para completarlo con tu banco.`,
      ],
      canceled: [
        `Tu suscripción ${plan} se canceló`,
        `Tras varios intentos fallidos de cobrar ${amount}, la suscripción se canceló y tu cuenta tiene ahora los límites del plan gratuito. Elige un plan en Facturación para continuar.`,
      ],
    }[kind] ?? ['Aviso de facturación', amount];
    return renderMail(`${c.productName}: ${text[0]}`, {
      heading: `Hola ${param(p, 'name')}`,
      paragraphs: [`${text[0]}.`, text[1]!],
      action: { label: 'Abrir facturación', url: `${c.appUrl}/account/billing` },
      footer: 'Recibes esto porque eres propietario de una cuenta con un plan de pago.',
    });
  },
});
