import type { TLocalCardBehaviour } from '../../db/schema/billing';

/**
 * The test cards of the local processor, as in the card network's test mode. Any other number
 * that passes the Luhn check succeeds.
 */
const TEST_CARDS: Record<string, TLocalCardBehaviour> = {
  '4242424242424242': 'succeed',
  '4000002500003155': 'authenticate',
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000341': 'attach_then_fail',
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

export function behaviourOf(digits: string): TLocalCardBehaviour {
  return TEST_CARDS[digits] ?? 'succeed';
}

export type TCardFieldProblem = 'incorrect_number' | 'invalid_expiry' | 'invalid_cvc';

/** Checks the card fields the way the processor does; null when they are acceptable. */
export function checkCardFields(
  input: { number: string; exp_month: number; exp_year: number; cvc: string },
  now: Date,
): { problem: TCardFieldProblem; field: 'number' | 'exp' | 'cvc' } | null {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
    return { problem: 'incorrect_number', field: 'number' };
  const month = input.exp_month;
  const year = input.exp_year;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (
    !Number.isInteger(month) ||
    month < 1 ||
    month > 12 ||
    year < thisYear ||
    year > thisYear + 50 ||
    (year === thisYear && month < thisMonth)
  ) {
    return { problem: 'invalid_expiry', field: 'exp' };
  }
  const cvcLength = cardBrand(digits) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc)) return { problem: 'invalid_cvc', field: 'cvc' };
  return null;
}
