/**
 * The local card widget's input: formatting as the user types, and the field rules of
 * `@air/shared/cards` (the same the server applies when it creates the token) on what was typed.
 */

import {
  cardBrand,
  cardDigits,
  expiryProblem as expiryRule,
  isCardNumber,
  isCvcFor,
} from '@air/shared/cards';
import type { TLocalCardTokenRequest } from '@air/shared/schemas/billing';

export type TCardProblem = 'number' | 'expiry' | 'expired' | 'cvc';

export const digitsOf = cardDigits;

/**
 * "4242424242424242" shown as "4242 4242 4242 4242" (at most 19 digits); an American Express
 * number the way its card prints it, "3782 822463 10005" (15 digits).
 */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text);
  if (cardBrand(digits) === 'amex') {
    const amex = digits.slice(0, 15);
    return [amex.slice(0, 4), amex.slice(4, 10), amex.slice(10)].filter(Boolean).join(' ');
  }
  return digits.slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1234" shown as "12 / 34"; a lone first digit above 1 is a month, padded ("4" → "04 / "). */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (digits.length === 1 && digits > '1') digits = `0${digits}`;
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function numberProblem(text: string): TCardProblem | null {
  const digits = digitsOf(text);
  return isCardNumber(digits) ? null : 'number';
}

export function parseExpiry(text: string): { month: number; year: number } | null {
  const digits = digitsOf(text);
  if (digits.length !== 4) return null;
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(digits.slice(2)) };
}

export function expiryProblem(text: string, now = new Date()): TCardProblem | null {
  const expiry = parseExpiry(text);
  if (!expiry) return 'expiry';
  const problem = expiryRule(expiry.month, expiry.year, now);
  return problem === 'expired' ? 'expired' : problem ? 'expiry' : null;
}

/** The CVC's problem for the number typed so far (4 digits for American Express, else 3). */
export function cvcProblem(text: string, number = ''): TCardProblem | null {
  return isCvcFor(digitsOf(number), text) ? null : 'cvc';
}

/** The complete card, or null while any part is missing or wrong. */
export function completeCard(
  number: string,
  expiry: string,
  cvc: string,
  now = new Date(),
): TLocalCardTokenRequest | null {
  if (numberProblem(number) || expiryProblem(expiry, now) || cvcProblem(cvc, number)) return null;
  const { month, year } = parseExpiry(expiry)!;
  return { number: digitsOf(number), exp_month: month, exp_year: year, cvc };
}
