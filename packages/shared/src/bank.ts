/*
 * Bank account numbers checked for form (contract 5b): an IBAN by its country's length and its
 * ISO 13616 mod-97 check digits, a US ABA routing number by its checksum (weights 3, 7, 1) and
 * Federal Reserve prefix, a US account number by its length. Form only: whether the account
 * exists is the bank's to say. The server and the console's form use the same functions.
 */

/** IBAN lengths by country (the SWIFT IBAN registry). */
// prettier-ignore
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21,
  CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27,
  GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27,
  MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25,
  QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** An IBAN as typed (spaces and lower case allowed) in its electronic form: `DE89370400440532013000`. */
export function normalizeIban(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** The remainder of a long decimal string (an IBAN's digits) divided by 97, piece by piece. */
function mod97(digits: string): number {
  let remainder = 0;
  for (let i = 0; i < digits.length; i += 7) {
    remainder = Number(`${remainder}${digits.slice(i, i + 7)}`) % 97;
  }
  return remainder;
}

/** True when `text` is an IBAN of a known country with its length and valid check digits. */
export function isValidIban(text: string): boolean {
  const iban = normalizeIban(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  // Letters count as 10 (A) to 35 (Z).
  const digits = moved.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return mod97(digits) === 1;
}

/** A routing number as typed, digits only. */
export function normalizeDigits(text: string): string {
  return text.replace(/[\s-]/g, '');
}

/**
 * True when `text` is nine digits whose ABA checksum holds (3 x (d1 + d4 + d7) + 7 x (d2 + d5 +
 * d8) + (d3 + d6 + d9) is a multiple of 10) and whose first two digits are a Federal Reserve
 * routing symbol (00-12, 21-32, 61-72, or 80 for traveler's cheques).
 */
export function isValidRoutingNumber(text: string): boolean {
  const digits = normalizeDigits(text);
  if (!/^\d{9}$/.test(digits)) return false;
  const prefix = Number(digits.slice(0, 2));
  if (!(prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80))
    return false;
  const d = [...digits].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** A US bank account number: 4 to 17 digits (what ACH carries). */
export function isValidUsAccountNumber(text: string): boolean {
  return /^\d{4,17}$/.test(normalizeDigits(text));
}
