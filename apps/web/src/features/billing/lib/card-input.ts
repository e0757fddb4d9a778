/**
 * The local card widget's input rules: what a typed card number, expiry and CVC look like, and
 * when the three together make a complete card. The server checks them again (Luhn, expiry, CVC)
 * when it creates the token; these checks only spare the user a round trip.
 */

import type { TLocalCardTokenRequest } from '@air/shared/schemas/billing';

export type TCardProblem = 'number' | 'expiry' | 'expired' | 'cvc';

export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** "4242424242424242" shown as "4242 4242 4242 4242" (at most 19 digits). */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text).slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1234" shown as "12 / 34"; a lone first digit above 1 is a month, padded ("4" → "04 / "). */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (digits.length === 1 && digits > '1') digits = `0${digits}`;
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export function numberProblem(text: string): TCardProblem | null {
  const digits = digitsOf(text);
  return digits.length >= 12 && digits.length <= 19 && luhnValid(digits) ? null : 'number';
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
  const current = now.getFullYear() * 12 + now.getMonth();
  return expiry.year * 12 + (expiry.month - 1) < current ? 'expired' : null;
}

export function cvcProblem(text: string): TCardProblem | null {
  return /^\d{3,4}$/.test(text) ? null : 'cvc';
}

/** The complete card, or null while any part is missing or wrong. */
export function completeCard(
  number: string,
  expiry: string,
  cvc: string,
  now = new Date(),
): TLocalCardTokenRequest | null {
  if (numberProblem(number) || expiryProblem(expiry, now) || cvcProblem(cvc)) return null;
  const { month, year } = parseExpiry(expiry)!;
  return { number: digitsOf(number), exp_month: month, exp_year: year, cvc };
}
