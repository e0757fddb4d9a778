// The usage page's constants without zod (schemas/usage-insight.ts builds its schemas on them): the
// console's usage page reads them and so does not load zod's ~22 KB for a list of period names.

export const USAGE_PERIODS = ['this_month', 'last_month', 'last_7_days', 'last_30_days', 'custom'] as const;

/** The days a custom period may name: real calendar days from 2000 to 2100. */
export const USAGE_FIRST_DAY = '2000-01-01';
export const USAGE_LAST_DAY = '2100-12-31';

/** Request log filters: status class of the answer. */
export const USAGE_STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;
