import { describe, expect, it } from 'vitest';
import { completeCard, expiryProblem, formatCardNumber, formatExpiry, numberProblem } from './card-input';
import { luhnValid } from '@air/shared/cards';

describe('the local card widget input rules', () => {
  const now = new Date('2026-11-23T00:00:00Z');

  it('groups card numbers by four and formats the expiry as MM / YY', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000 0025 0000 3155 9999 1')).toBe('4000 0025 0000 3155 999');
    // American Express: 4-6-5, as printed on the card, and no digit past the 15th.
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('3782 8224 6310 0059')).toBe('3782 822463 10005');
    expect(formatCardNumber('37828')).toBe('3782 8');
    expect(formatCardNumber('3782822463')).toBe('3782 822463');
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('1')).toBe('1');
  });

  it('checks Luhn, expiry in the future and CVC before the card is complete', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(numberProblem('4000 0000 0000 0002')).toBeNull();
    expect(numberProblem('1234')).toBe('number');
    expect(expiryProblem('10 / 26', now)).toBe('expired');
    expect(expiryProblem('11 / 26', now)).toBeNull();
    expect(expiryProblem('13 / 30', now)).toBe('expiry');
    expect(completeCard('4242 4242 4242 4242', '12 / 30', '12', now)).toBeNull();
    // The CVC's length follows the brand, as the server checks it: 4 for American Express.
    expect(completeCard('4242 4242 4242 4242', '12 / 30', '1234', now)).toBeNull();
    expect(completeCard('3782 822463 10005', '12 / 30', '123', now)).toBeNull();
    expect(completeCard('3782 822463 10005', '12 / 30', '1234', now)).toMatchObject({ cvc: '1234' });
    expect(completeCard('4242 4242 4242 4242', '12 / 30', '123', now)).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
  });
});
