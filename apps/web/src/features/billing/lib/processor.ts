/**
 * The browser side of a card processor, in the shape of Stripe.js's client (the subset AIR uses):
 * `createToken(card)` turns what the card widget holds into a `tok_…` token, and
 * `confirmCardPayment(clientSecret)` runs the authentication a payment needs and answers the
 * payment intent. Both answer `{ error }` instead of throwing when the processor refuses.
 */
export interface TProcessorError {
  message: string;
  code?: string;
}

export interface TCardProcessor {
  createToken(card: unknown): Promise<{ token?: { id: string }; error?: TProcessorError }>;
  confirmCardPayment(
    clientSecret: string,
  ): Promise<{ paymentIntent?: { id: string; status: string }; error?: TProcessorError }>;
}
