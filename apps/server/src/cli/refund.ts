import { billingFor, refundInvoice, RefundError } from '../modules/billing/service';
import { withDatabase } from '../db/with-database';
import type { TCliCommand } from './command';

const USAGE = 'INVOICE_NUMBER [AMOUNT_MINOR] [--chargeback] [--reason TEXT]';

/**
 * The admin's refund of a caller's paid invoice (contract 5b): the amount (minor units; default
 * what is left) goes back to the card through the configured processor, and the providers'
 * earnings from the invoice's marketplace lines are reversed in proportion. `--chargeback`
 * (local processor only) records a dispute the card network settled against the platform.
 */
const refund: TCliCommand = {
  description: "refund a caller's paid invoice (reverses the matching earnings)",
  usage: USAGE,
  async run({ config, args }) {
    const rest = [...args];
    const chargeback = rest.includes('--chargeback');
    const reasonAt = rest.indexOf('--reason');
    const reason = reasonAt >= 0 ? (rest[reasonAt + 1] ?? '') : 'requested by the platform';
    const positional = rest.filter(
      (arg, index) => arg !== '--chargeback' && index !== reasonAt && index !== reasonAt + 1,
    );
    const [number, amountText, ...extra] = positional;
    const amount = amountText === undefined ? null : /^\d{1,9}$/.test(amountText) ? Number(amountText) : NaN;
    if (!number || extra.length > 0 || Number.isNaN(amount) || amount === 0) {
      console.error(`Usage: npm run cli -- refund ${USAGE}`);
      return 1;
    }
    try {
      const result = await withDatabase(config, (database) =>
        refundInvoice(billingFor(config, database.db), {
          number,
          amount,
          kind: chargeback ? 'chargeback' : 'refund',
          reason,
        }),
      );
      console.log(
        `Invoice ${result.number}: ${result.refunded} of ${result.total} (minor units) refunded` +
          `${result.applied ? '' : ' (this refund was applied before)'}.`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof RefundError)) throw error;
      console.error(`Not refunded: ${error.message}`);
      return 1;
    }
  },
};

export default refund;
