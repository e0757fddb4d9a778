import { describe, expect, it } from 'vitest';
import { cardBrand, checkCardFields, cvcLength, expiryProblem, isCardNumber } from './cards';

describe('card field rules (the console widget and the local processor)', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  it('numbers: 12-19 digits passing Luhn, brand by prefix', () => {
    expect(isCardNumber('4242424242424242')).toBe(true);
    expect(isCardNumber('4242424242424241')).toBe(false);
    expect(isCardNumber('42424')).toBe(false);
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cvcLength('378282246310005')).toBe(4);
    expect(cvcLength('4242424242424242')).toBe(3);
  });
  it('expiry: this month is fine, last month is expired, 51 years ahead is not a date', () => {
    expect(expiryProblem(11, 2026, now)).toBeNull();
    expect(expiryProblem(10, 2026, now)).toBe('expired');
    expect(expiryProblem(13, 2030, now)).toBe('invalid');
    expect(expiryProblem(1, 2077, now)).toBe('invalid');
  });
  it('the first problem names its field', () => {
    const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' };
    expect(checkCardFields(card, now)).toBeNull();
    expect(checkCardFields({ ...card, number: '1234' }, now)).toEqual({
      problem: 'incorrect_number',
      field: 'number',
    });
    expect(checkCardFields({ ...card, exp_year: 2025 }, now)).toEqual({
      problem: 'invalid_expiry',
      field: 'exp',
    });
    expect(checkCardFields({ ...card, cvc: '1234' }, now)).toEqual({ problem: 'invalid_cvc', field: 'cvc' });
  });
});
