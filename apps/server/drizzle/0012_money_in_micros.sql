ALTER TABLE "usage_events" RENAME COLUMN "cost_micros" TO "cost_picos";--> statement-breakpoint
DROP INDEX "usage_events_unbilled_idx";--> statement-breakpoint
CREATE INDEX "usage_events_unbilled_idx" ON "usage_events" USING btree ("caller_account_id","created_at") WHERE "usage_events"."cost_picos" is not null and "usage_events"."charge_id" is null;--> statement-breakpoint
-- Decision 043: prices from minor units to micros (x 10,000 in a two-decimal currency), capped at
-- the new most a price part may be (1,000 main units); costs from millionths of a minor unit to
-- picos (x 10,000). Spend limits stay as saved (minor units; the counters hold nanos).
UPDATE "ai_endpoints" SET "price_per_call" = least("price_per_call"::bigint * 10000, 1000000000), "price_per_1m_input" = least("price_per_1m_input"::bigint * 10000, 1000000000), "price_per_1m_output" = least("price_per_1m_output"::bigint * 10000, 1000000000) WHERE "price_per_call" IS NOT NULL;--> statement-breakpoint
UPDATE "usage_events" SET "cost_picos" = "cost_picos" * 10000, "price_per_call" = least("price_per_call"::bigint * 10000, 1000000000), "price_per_1m_input" = least("price_per_1m_input"::bigint * 10000, 1000000000), "price_per_1m_output" = least("price_per_1m_output"::bigint * 10000, 1000000000) WHERE "cost_picos" IS NOT NULL OR "price_per_call" IS NOT NULL;--> statement-breakpoint
UPDATE "marketplace_charges" SET "price_per_call" = least("price_per_call"::bigint * 10000, 1000000000), "price_per_1m_input" = least("price_per_1m_input"::bigint * 10000, 1000000000), "price_per_1m_output" = least("price_per_1m_output"::bigint * 10000, 1000000000);
