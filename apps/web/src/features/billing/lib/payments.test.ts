import { afterEach, describe, expect, it, vi } from 'vitest';
import { cardFieldComponent, cardTokenizer, paymentConfirmer } from '@/components/form/payment-step';
import { LocalCardField } from '../components/local-card-field';
import { resetPayments, setUpPayments } from './payments';

const loadStripe = vi.hoisted(() => vi.fn());
vi.mock('@stripe/stripe-js', () => ({ loadStripe }));

afterEach(() => {
  resetPayments();
  vi.restoreAllMocks();
});

describe('the card processor the console registers', () => {
  it('local mode: the local card widget, tokenizer and confirmer', async () => {
    expect(await setUpPayments({ provider: 'local', publishable_key: null })).toBe(true);
    expect(cardFieldComponent()).toBe(LocalCardField);
    expect(cardTokenizer()).toBeTypeOf('function');
    expect(paymentConfirmer()).toBeTypeOf('function');
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('stripe mode: Stripe.js with the publishable key, its card element and its own confirmCardPayment', async () => {
    const confirmCardPayment = vi
      .fn()
      .mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const createToken = vi.fn().mockResolvedValue({ token: { id: 'tok_1' } });
    loadStripe.mockResolvedValue({ confirmCardPayment, createToken });
    expect(await setUpPayments({ provider: 'stripe', publishable_key: 'pk_test_1' })).toBe(true);
    expect(loadStripe).toHaveBeenCalledWith('pk_test_1');
    expect(cardFieldComponent()).not.toBe(LocalCardField);
    expect(await cardTokenizer()!({ element: true })).toBe('tok_1');
    expect(await paymentConfirmer()!({ clientSecret: 'pi_1_secret_x', values: {} })).toEqual({
      payment_intent: 'pi_1',
    });
    expect(confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x');
  });

  it('stripe mode: a script that fails to load is logged only, and no card step pretends to work', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    expect(await setUpPayments({ provider: 'stripe', publishable_key: 'pk_test_1' })).toBe(false);
    expect(logged).toHaveBeenCalledWith('Stripe.js failed to load', expect.any(Error));
    expect(cardFieldComponent()).toBeNull();
    expect(cardTokenizer()).toBeNull();
  });
});
