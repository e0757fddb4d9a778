import type { TLocalCardBehaviour } from '../../../db/schema/billing';

/**
 * The test cards of the local processor, as in the card network's test mode. Any other number
 * that passes the Luhn check succeeds. The field rules (Luhn, expiry, CVC length by brand) are
 * `@air/shared/cards`, shared with the console's card widget.
 */
const TEST_CARDS: Record<string, TLocalCardBehaviour> = {
  '4242424242424242': 'succeed',
  '4000002500003155': 'authenticate',
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000341': 'attach_then_fail',
};

export function behaviourOf(digits: string): TLocalCardBehaviour {
  return TEST_CARDS[digits] ?? 'succeed';
}
