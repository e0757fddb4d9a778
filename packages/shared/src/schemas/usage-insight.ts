import { z } from 'zod';
import { ZUpstreamFormat } from './aiendpoint';
import { pageQuery, ZPage } from './page';
import { USAGE_FIRST_DAY, USAGE_LAST_DAY, USAGE_PERIODS, USAGE_STATUS_CLASSES } from '../usage-limits';

export { USAGE_FIRST_DAY, USAGE_LAST_DAY, USAGE_PERIODS, USAGE_STATUS_CLASSES };

/**
 * The usage page (`GET /api/account/usage/insight`) and the request log
 * (`GET /api/account/usage/log`). Days are calendar days in UTC, `YYYY-MM-DD`.
 */
export const ZUsagePeriod = z.enum(USAGE_PERIODS);
export type TUsagePeriod = z.infer<typeof ZUsagePeriod>;

/** The longest custom period, in days (the roll-up answers any length; the chart stays readable). */
export const MAX_USAGE_DAYS = 366;

const ZDay = z.iso.date();

/**
 * A day from a request: a real calendar day (no 13th month, no 30 February) in the supported
 * range, so nothing the server does with it (a loop over days, a date in SQL) meets an extreme.
 */
const ZQueryDay = z.iso
  .date({ error: 'validation.usage_day' })
  .refine((day) => day >= USAGE_FIRST_DAY && day <= USAGE_LAST_DAY, { error: 'validation.usage_day' });

export const ZUsageInsightQuery = z
  .strictObject({
    period: ZUsagePeriod.default('this_month'),
    /** Custom period only: first and last day, inclusive. */
    from: ZQueryDay.optional(),
    to: ZQueryDay.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.period !== 'custom') return;
    if (!query.from || !query.to) {
      ctx.addIssue({
        code: 'custom',
        path: [query.from ? 'to' : 'from'],
        message: 'validation.usage_custom_range',
      });
      return;
    }
    const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
    if (days < 0 || days >= MAX_USAGE_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.usage_custom_range' });
    }
  });
export type TUsageInsightQuery = z.infer<typeof ZUsageInsightQuery>;

const count = z.number().int().min(0);

/** Calls split by status class: 2xx, 4xx, 5xx, and anything else (1xx, 3xx). */
export const ZStatusCounts = z.object({
  status_2xx: count,
  status_4xx: count,
  status_5xx: count,
  status_other: count,
});
export type TStatusCounts = z.infer<typeof ZStatusCounts>;

const ZTokenCounts = z.object({
  prompt_tokens: count,
  completion_tokens: count,
  /** Calls whose tokens the gateway estimated (the upstream reported none). */
  estimated_calls: count,
});

export const ZUsageRow = z.object({ calls: count, ...ZStatusCounts.shape, ...ZTokenCounts.shape });
export type TUsageRow = z.infer<typeof ZUsageRow>;

export const ZUsageDay = ZUsageRow.extend({ day: ZDay });
export type TUsageDay = z.infer<typeof ZUsageDay>;

export const ZUsageByEndpoint = ZUsageRow.extend({
  endpoint_id: z.uuid().nullable(),
  /** null when the endpoint was deleted since. */
  route_name: z.string().nullable(),
});
export type TUsageByEndpoint = z.infer<typeof ZUsageByEndpoint>;

export const ZUsageByKey = ZUsageRow.extend({
  key_id: z.uuid().nullable(),
  /** null when the key was deleted since. */
  key_name: z.string().nullable(),
});
export type TUsageByKey = z.infer<typeof ZUsageByKey>;

export const ZUsageCaller = z.object({
  totals: ZUsageRow.extend({
    /** Estimated from the roll-up's latency buckets (linear within a bucket); null with no calls. */
    latency_p50_ms: z.number().min(0).nullable(),
    latency_p95_ms: z.number().min(0).nullable(),
  }),
  days: z.array(ZUsageDay),
  endpoints: z.array(ZUsageByEndpoint),
  keys: z.array(ZUsageByKey),
});
export type TUsageCaller = z.infer<typeof ZUsageCaller>;

/** Calls other accounts made to this account's endpoints. */
export const ZUsageProvider = z.object({
  totals: z.object({ calls: count }),
  days: z.array(z.object({ day: ZDay, calls: count })),
  endpoints: z.array(
    z.object({ endpoint_id: z.uuid().nullable(), route_name: z.string().nullable(), calls: count }),
  ),
  /** Calling organisations (account names). */
  callers: z.array(z.object({ account_name: z.string().nullable(), calls: count })),
});
export type TUsageProvider = z.infer<typeof ZUsageProvider>;

/** This calendar month against the plan's quota, whatever period is shown. */
export const ZUsageQuota = z.object({
  period: z.string().regex(/^\d{4}-\d{2}$/),
  calls: count,
  quota: count.nullable(),
  /** Whole per cent of the quota used (may pass 100); null without a quota. */
  percent: z.number().int().min(0).nullable(),
  /** The day the quota is reached at this month's pace; null when it will not be this month. */
  projected_day: ZDay.nullable(),
  reached: z.boolean(),
});
export type TUsageQuota = z.infer<typeof ZUsageQuota>;

export const ZUsageInsight = z.object({
  period: z.object({ preset: ZUsagePeriod, from: ZDay, to: ZDay }),
  caller: ZUsageCaller,
  provider: ZUsageProvider,
  quota: ZUsageQuota,
});
export type TUsageInsight = z.infer<typeof ZUsageInsight>;

export const ZUsageStatusClass = z.enum(USAGE_STATUS_CLASSES);
export type TUsageStatusClass = z.infer<typeof ZUsageStatusClass>;

export const USAGE_LOG_DAYS = 30;
export const USAGE_LOG_PAGE = 50;

export const ZUsageLogQuery = z.strictObject({
  endpoint_id: z.uuid().optional(),
  key_id: z.uuid().optional(),
  status: ZUsageStatusClass.optional(),
  ...pageQuery({ default: USAGE_LOG_PAGE, max: 200 }),
});
export type TUsageLogQuery = z.infer<typeof ZUsageLogQuery>;

export const ZUsageLogEntry = z.object({
  id: z.string(),
  time: z.iso.datetime(),
  endpoint_id: z.uuid().nullable(),
  route_name: z.string().nullable(),
  /** An MCP tool call's tool (contract 6d); null on every other call. */
  tool: z.string().nullable(),
  key_id: z.uuid().nullable(),
  key_name: z.string().nullable(),
  status: z.number().int(),
  latency_ms: count,
  prompt_tokens: count.nullable(),
  completion_tokens: count.nullable(),
  tokens_estimated: z.boolean(),
  streamed: z.boolean(),
  /** The gateway's code (e.g. upstream_timeout), `upstream_<status>` for an upstream's error, else null. */
  error_code: z.string().nullable(),
  /** Upstream calls made for the request (retries and fallbacks included); 0 when answered from the cache. */
  attempts: count,
  /** Answered from the gateway's cache (contract 6a). */
  cache_hit: z.boolean(),
  /**
   * The API the caller spoke (`anthropic` on `/v1/messages`) and the one of the upstream the call
   * was last sent to (decision 058); null where there is none (an MCP call, a refused call, a cache
   * hit's upstream, a call logged before formats were).
   */
  client_format: ZUpstreamFormat.nullable(),
  upstream_format: ZUpstreamFormat.nullable(),
  /**
   * A fallback's call: the route the caller asked for (`route_name` is the one that answered);
   * null otherwise, or when that endpoint is gone.
   */
  requested_route_name: z.string().nullable(),
});
export type TUsageLogEntry = z.infer<typeof ZUsageLogEntry>;

export const ZUsageLog = ZPage(ZUsageLogEntry);
export type TUsageLog = z.infer<typeof ZUsageLog>;
