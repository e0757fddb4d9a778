import { AppError } from '../../lib/app-error';
import { registerMessages } from '../../i18n';
import { CardError, ProcessorError } from './provider';

registerMessages({
  en: {
    'billing.card.card_declined': 'Your card was declined.',
    'billing.card.insufficient_funds': 'Your card has insufficient funds.',
    'billing.card.expired_card': 'Your card has expired.',
    'billing.card.incorrect_number': 'Your card number is incorrect.',
    'billing.card.invalid_expiry': "Your card's expiration date is invalid.",
    'billing.card.invalid_cvc': "Your card's security code is invalid.",
    'billing.card.payment_intent_authentication_failure':
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    'billing.processor_unavailable':
      'The payment processor could not be reached. Nothing was changed; please try again.',
    'billing.busy': 'Another billing change is in progress. Please try again in a moment.',
    'billing.payment_unknown': 'This payment does not match the request.',
    'billing.action_required': 'Please authenticate the payment with your bank.',
    'billing.payment_authorized': 'Your payment is authorized and your subscription is active again.',
    'billing.nothing_to_authorize': 'There is no payment waiting for your authorization.',
    'billing.plan_saved': 'Your plan has been updated.',
    'billing.plan_cancel_at_period_end': 'Your subscription will be cancelled on {date}.',
    'billing.card_saved': 'Your card has been updated.',
    'billing.not_available': 'This billing call is not available with the configured provider.',
    'validation.card_required': 'Please enter your card details',
    'validation.plan_required': 'Please choose a plan',
  },
  es: {
    'billing.card.card_declined': 'Tu tarjeta fue rechazada.',
    'billing.card.insufficient_funds': 'Tu tarjeta no tiene fondos suficientes.',
    'billing.card.expired_card': 'Tu tarjeta ha caducado.',
    'billing.card.incorrect_number': 'El número de tu tarjeta es incorrecto.',
    'billing.card.invalid_expiry': 'La fecha de caducidad de tu tarjeta no es válida.',
    'billing.card.invalid_cvc': 'El código de seguridad de tu tarjeta no es válido.',
    'billing.card.payment_intent_authentication_failure':
      'No pudimos autenticar tu método de pago. Elige otro método de pago e inténtalo de nuevo.',
    'billing.processor_unavailable':
      'No se pudo contactar con el procesador de pagos. No se cambió nada; inténtalo de nuevo.',
    'billing.busy': 'Hay otro cambio de facturación en curso. Inténtalo de nuevo en un momento.',
    'billing.payment_unknown': 'Este pago no corresponde a la solicitud.',
    'billing.action_required': 'Autentica el pago con tu banco.',
    'billing.payment_authorized': 'Tu pago está autorizado y tu suscripción vuelve a estar activa.',
    'billing.nothing_to_authorize': 'No hay ningún pago pendiente de tu autorización.',
    'billing.plan_saved': 'Tu plan se ha actualizado.',
    'billing.plan_cancel_at_period_end': 'Tu suscripción se cancelará el {date}.',
    'billing.card_saved': 'Tu tarjeta se ha actualizado.',
    'billing.not_available': 'Esta llamada de facturación no está disponible con el proveedor configurado.',
    'validation.card_required': 'Introduce los datos de tu tarjeta',
    'validation.plan_required': 'Elige un plan',
  },
});

/** A card refusal as the console shows it: 400 on the card field with the processor's code. */
export function cardAppError(error: CardError, inputError = 'token'): AppError {
  return new AppError('bad_request', {
    messageKey: `billing.card.${error.code}`,
    inputError,
    extra: { code: error.code },
    cause: error,
  });
}

/** Runs a processor call: card refusals become 400 on the card field, failures 503 (nothing changed). */
export async function processorCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CardError) throw cardAppError(error);
    if (error instanceof AppError) throw error;
    throw new AppError('service_unavailable', {
      messageKey: 'billing.processor_unavailable',
      cause: error instanceof ProcessorError ? error : new ProcessorError(String(error), { cause: error }),
    });
  }
}
