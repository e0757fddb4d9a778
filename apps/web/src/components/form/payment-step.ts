import { createElement, type ComponentType, type ReactElement } from 'react';
import type { TFormValues } from './types';

/*
 * Billing extension points of the generic form. The form engine knows WHEN a card or a payment
 * confirmation is needed (spec section 7); the billing feature supplies HOW, for its provider
 * (the local card processor or Stripe), by registering here at start-up. Nothing is faked: with no
 * registration, the form reports a clear error instead of submitting without the card step.
 */

/** The extra field carrying the payment confirmation result on the repeated request. */
export const PAYMENT_RESULT_FIELD = 'payment';

export interface TPaymentConfirmationInput {
  /** `client_secret` from the `{ requires_payment_action: true, client_secret }` response. */
  clientSecret: string;
  /** The values the form sent (card tokens already created). */
  values: TFormValues;
}

/**
 * Confirms a payment needing authentication (e.g. 3-D Secure) and resolves with the provider's
 * result, which the form sends back under PAYMENT_RESULT_FIELD. Reject to abort the submit: the
 * rejection goes to the shared error handler.
 */
export type TPaymentConfirmer = (input: TPaymentConfirmationInput) => Promise<unknown>;

/** Turns the card widget's value (non-null when filled) into the provider's card token string. */
export type TCardTokenizer = (cardValue: unknown) => Promise<string>;

export interface TCardFieldProps {
  id: string;
  name: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  /** Report null while the card is empty or incomplete, any non-null value once it is filled. */
  onChange: (value: unknown) => void;
  onBlur: () => void;
}

interface TRegistry {
  confirmPayment: TPaymentConfirmer | null;
  tokenizeCard: TCardTokenizer | null;
  CardField: ComponentType<TCardFieldProps> | null;
}

const registry: TRegistry = { confirmPayment: null, tokenizeCard: null, CardField: null };

export function registerPaymentConfirmer(confirm: TPaymentConfirmer | null): void {
  registry.confirmPayment = confirm;
}
export function registerCardTokenizer(tokenize: TCardTokenizer | null): void {
  registry.tokenizeCard = tokenize;
}
export function registerCardField(component: ComponentType<TCardFieldProps> | null): void {
  registry.CardField = component;
}

export function paymentConfirmer(): TPaymentConfirmer | null {
  return registry.confirmPayment;
}
export function cardTokenizer(): TCardTokenizer | null {
  return registry.tokenizeCard;
}
export function cardFieldComponent(): ComponentType<TCardFieldProps> | null {
  return registry.CardField;
}

/**
 * The registered card widget as one component type declared here, so the form renders the same
 * component on every render (a component looked up during render would look new to React each
 * time and lose its state). The provider registers once at start-up; null when none has.
 */
export function RegisteredCardField(props: TCardFieldProps): ReactElement | null {
  const CardField = registry.CardField;
  return CardField ? createElement(CardField, props) : null;
}

/**
 * Raised by a card tokenizer when the processor refuses the card (a wrong number, an expired
 * card): the form shows its message on the card field, as it does a server's `inputError`.
 */
export class CardTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardTokenError';
  }
}

/** Raised when the server asks for a card step that no billing provider has registered. */
export class PaymentStepUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentStepUnavailableError';
  }
}
