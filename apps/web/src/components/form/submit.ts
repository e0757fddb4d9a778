import i18n from '@/lib/i18n';
import type { TAnswerOf } from '@air/shared/api';
import { toast } from '@/components/ui/use-toast';
import {
  ApiError,
  answerMessage,
  submitCall,
  type TFormBody,
  type TParamsFor,
  type TWriteCall,
} from '@/lib/api';
import { activeFields, bodyValues, type TFormFields, type TFormParams, type TFormValues } from './types';
import {
  CardTokenError,
  PAYMENT_RESULT_FIELD,
  PaymentStepUnavailableError,
  cardTokenizer,
  paymentConfirmer,
} from './payment-step';

function isFileList(value: unknown): value is FileList {
  return typeof FileList !== 'undefined' && value instanceof FileList;
}

export function hasFiles(values: TFormValues): boolean {
  return Object.values(values).some(isFileList);
}

/** Multipart body: each file under its field name, arrays as repeated entries, objects as JSON. */
export function toFormData(values: TFormValues): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (isFileList(value)) for (const file of Array.from(value)) data.append(name, file);
    else if (Array.isArray(value)) for (const item of value) data.append(name, String(item));
    else if (typeof value === 'object') data.append(name, JSON.stringify(value));
    else data.append(name, String(value));
  }
  return data;
}

/**
 * The one place a form's values become a call's body: the generic form holds a field map (its
 * fields are data, not types), checked before sending by the form's schema, which is the call's
 * own request schema (`schema` of the form, from @air/shared), so the map is that body here.
 */
function send<K extends TWriteCall>(name: K, params: TFormParams | undefined, values: TFormValues) {
  const body = hasFiles(values) ? toFormData(values) : (values as TFormBody<K>);
  return submitCall(name, body, params as TParamsFor<K>);
}

/** Card widgets hold a provider value; the server wants a token, created just before sending. */
async function tokenizeCards(fields: TFormFields, values: TFormValues): Promise<TFormValues> {
  const out = { ...values };
  for (const [name, field] of activeFields(fields)) {
    if (field.type !== 'card' || out[name] == null) continue;
    const tokenize = cardTokenizer();
    if (!tokenize) throw new PaymentStepUnavailableError(i18n.t('form:form.payment.unavailable'));
    try {
      out[name] = await tokenize(out[name]);
    } catch (error) {
      if (error instanceof CardTokenError)
        throw new ApiError(400, { message: error.message, inputError: name });
      throw error;
    }
  }
  return out;
}

/**
 * The generic form's request cycle (spec section 7): create card tokens, send, and when the answer
 * is `requires_payment_action`, confirm the payment with the client secret and repeat the request
 * with the original data plus the confirmation result.
 */
export async function submitValues<K extends TWriteCall>(
  fields: TFormFields,
  name: K,
  params: TFormParams | undefined,
  values: TFormValues,
): Promise<{ response: TAnswerOf<K>; sent: TFormValues }> {
  const sent = await tokenizeCards(fields, values);
  let response = await send(name, params, sent);
  const payment = response as { requires_payment_action?: unknown; client_secret?: unknown };
  if (payment.requires_payment_action && typeof payment.client_secret === 'string') {
    const confirm = paymentConfirmer();
    if (!confirm) throw new PaymentStepUnavailableError(i18n.t('form:form.payment.unavailable'));
    const result = await confirm({ clientSecret: payment.client_secret, values: sent });
    response = await send(name, params, { ...sent, [PAYMENT_RESULT_FIELD]: result });
  }
  return { response, sent };
}

export interface TSubmitOptions<K extends TWriteCall> {
  fields: TFormFields;
  call: K;
  params?: TFormParams;
  onSuccess?: (response: TAnswerOf<K>, values: TFormValues) => void | Promise<void>;
  /** Where a refusal goes that no shown field can carry (the shared handler, or the sign-in family's). */
  onError: (error: unknown) => void;
  /**
   * The field that shows a refusal's `inputError`, for a form whose fields are not the body's
   * (a body form, see use-body-form); without it, the top-level field of that name when shown.
   */
  fieldOf?: (inputError: string) => string | undefined;
  /** The form's own success text, toasted instead of the server's message (the settings cards' "Saved"). */
  successMessage?: string;
  /** No success toast at all: a step whose next page says what happened (the sign-up plan step). */
  silent?: boolean;
}

/**
 * The one request cycle of every form (spec sections 7 and 8): card tokens, send the call, confirm
 * a payment the answer asks for and repeat, show the server's message, then `onSuccess`. A refusal
 * naming a field the form shows (`inputError`) lands on that field; anything else goes to `onError`.
 */
export async function runSubmit<K extends TWriteCall>(
  values: TFormValues,
  setError: (name: string, error: { type: 'server'; message: string }) => void,
  { fields, call, params, onSuccess, onError, fieldOf, successMessage, silent }: TSubmitOptions<K>,
): Promise<void> {
  try {
    const { response, sent } = await submitValues(fields, call, params, bodyValues(fields, values));
    const message = successMessage ?? answerMessage(response);
    if (message && !silent) toast({ variant: 'success', title: message });
    await onSuccess?.(response, sent);
  } catch (error) {
    const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
    // A field the form does not show (type null or hidden) cannot carry the message: a toast does.
    // A nested field (`routes.0`) belongs to its form field (`routes`).
    const inputError = body?.inputError;
    const name = inputError && fieldOf ? fieldOf(inputError) : inputError?.split('.')[0];
    const field = name ? fields[name] : undefined;
    const shown = fieldOf ? Boolean(name) : Boolean(field && field.type !== null && field.type !== 'hidden');
    if (name && body?.message && shown) {
      setError(name, { type: 'server', message: body.message });
    } else {
      onError(error);
    }
  }
}
