/**
 * Billing's face (decision 022): everything outside modules/billing calls these. Plans, the
 * subscription engine (plan change, card, invoice payment, renewals and dunning), the card
 * processors (local, Stripe) and the entitlements the gateway enforces live in this folder;
 * plans, subscriptions, cards, invoices and the billing_* tables are its own.
 */
export type { TBilling } from './context';
export { loadPlans, seedPlans } from './plans';
export { parseDuration } from './clock';
export { advanceAndRenew, billingFor } from './clock-command';
export { runDuePayouts, type TPayoutRunOptions, type TPayoutStep } from './payouts/run';
export { refundInvoice, RefundError, type TRefundApplied } from './payouts/refunds';
export { createProvider } from './create';
export { runDueRenewals } from './renewals';
export { closeBilling } from './close';
export { loadSubscription, planById, type TSubscriptionRow } from './records';
export { membersChanged } from './seats';
export { billingCurrencyOf, spendLimitRows } from './spend-limit';
export { entitlementsFor, entitlementsOf, lowestQuotaCallsMonth, type TEntitlements } from './entitlements';
export { changePlan, type TPlanChangeInput } from './plan-change';
export { updateCard, type TCardUpdateInput } from './card';
export { authorizeInvoice, type TAuthorizeInput } from './invoice-payment';
export type { TBillingOutcome } from './charge';
