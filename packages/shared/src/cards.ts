/**
 * Card field rules, one copy for the console's card widget and the local processor's token call:
 * a number of 12 to 19 digits passing the Luhn check, an expiry month not yet past (in UTC, as the
 * processor counts it) and at most 50 years ahead, and a CVC of 4 digits for American Express and
 * 3 for every other brand.
 */

export type TCardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';
export type TCardField = 'number' | 'exp' | 'cvc';
export type TCardFieldProblem = 'incorrect_number' | 'invalid_expiry' | 'invalid_cvc';

/** Years ahead an expiry may be. */
export const CARD_EXPIRY_MAX_YEARS = 50;

/** The digits of a typed number (spaces, dashes and anything else dropped). */
export function cardDigits(text: string): string {
  return text.replace(/\D/g, '');
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

export function cardBrand(digits: string): TCardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/** 12 to 19 digits that pass the Luhn check. */
export function isCardNumber(digits: string): boolean {
  return /^\d{12,19}$/.test(digits) && luhnValid(digits);
}

/** The CVC's length for a card number: 4 for American Express, else 3. */
export function cvcLength(digits: string): 3 | 4 {
  return cardBrand(digits) === 'amex' ? 4 : 3;
}

export function isCvcFor(digits: string, cvc: string): boolean {
  return new RegExp(`^\\d{${cvcLength(digits)}}$`).test(cvc);
}

/** `expired` for a month already past, `invalid` for no month or one too far ahead, else null. */
export function expiryProblem(month: number, year: number, now: Date): 'expired' | 'invalid' | null {
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return 'invalid';
  const thisYear = now.getUTCFullYear();
  if (year > thisYear + CARD_EXPIRY_MAX_YEARS) return 'invalid';
  return year * 12 + month < thisYear * 12 + now.getUTCMonth() + 1 ? 'expired' : null;
}

/** Checks the three fields as the processor does: the first problem and its field, or null. */
export function checkCardFields(
  input: { number: string; exp_month: number; exp_year: number; cvc: string },
  now: Date,
): { problem: TCardFieldProblem; field: TCardField } | null {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!isCardNumber(digits)) return { problem: 'incorrect_number', field: 'number' };
  if (expiryProblem(input.exp_month, input.exp_year, now)) return { problem: 'invalid_expiry', field: 'exp' };
  if (!isCvcFor(digits, input.cvc)) return { problem: 'invalid_cvc', field: 'cvc' };
  return null;
}
