CREATE TABLE "endpoint_daily" (
	"endpoint_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status_class" smallint NOT NULL,
	"latency_bucket" smallint NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "endpoint_daily_pk" PRIMARY KEY("endpoint_id","day","status_class","latency_bucket")
);
--> statement-breakpoint
CREATE TABLE "marketplace_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"caller_account_id" uuid NOT NULL,
	"provider_account_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"route_name" text NOT NULL,
	"invoice_id" uuid,
	"price_per_call" integer NOT NULL,
	"price_per_1m_input" integer NOT NULL,
	"price_per_1m_output" integer NOT NULL,
	"calls" integer NOT NULL,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer NOT NULL,
	"currency" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spend_limits" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"limit_minor" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "price_per_call" integer;--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "price_per_1m_input" integer;--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "price_per_1m_output" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "cost_micros" bigint;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "price_per_call" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "price_per_1m_input" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "price_per_1m_output" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "charge_id" uuid;--> statement-breakpoint
ALTER TABLE "spend_limits" ADD CONSTRAINT "spend_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "marketplace_charges_caller_idx" ON "marketplace_charges" USING btree ("caller_account_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_charges_provider_idx" ON "marketplace_charges" USING btree ("provider_account_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_charges_invoice_idx" ON "marketplace_charges" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "usage_events_unbilled_idx" ON "usage_events" USING btree ("caller_account_id","created_at") WHERE "usage_events"."cost_micros" is not null and "usage_events"."charge_id" is null;--> statement-breakpoint
-- The metering trigger also keeps endpoint_daily (the catalog's statistics): one more grouped
-- INSERT per batch, ordered like the first so concurrent batches lock rows in one order.
CREATE OR REPLACE FUNCTION "usage_daily_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "usage_daily" AS d ("day", "caller_account_id", "provider_account_id", "endpoint_id", "key_id",
    "status_class", "latency_bucket", "calls", "prompt_tokens", "completion_tokens", "estimated_calls")
  SELECT (n."created_at" AT TIME ZONE 'UTC')::date, n."caller_account_id",
    coalesce(n."provider_account_id", '00000000-0000-0000-0000-000000000000'),
    coalesce(n."endpoint_id", '00000000-0000-0000-0000-000000000000'),
    coalesce(n."key_id", '00000000-0000-0000-0000-000000000000'),
    (n."status" / 100)::smallint,
    width_bucket(n."latency_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint,
    count(*), coalesce(sum(n."prompt_tokens"), 0), coalesce(sum(n."completion_tokens"), 0),
    count(*) FILTER (WHERE n."tokens_estimated")
  FROM new_rows n
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  -- One order for every writer, so concurrent batches lock roll-up rows in the same order.
  ORDER BY 2, 1, 3, 4, 5, 6, 7
  ON CONFLICT ("caller_account_id", "day", "provider_account_id", "endpoint_id", "key_id", "status_class", "latency_bucket")
  DO UPDATE SET "calls" = d."calls" + excluded."calls",
    "prompt_tokens" = d."prompt_tokens" + excluded."prompt_tokens",
    "completion_tokens" = d."completion_tokens" + excluded."completion_tokens",
    "estimated_calls" = d."estimated_calls" + excluded."estimated_calls";
  INSERT INTO "endpoint_daily" AS e ("endpoint_id", "day", "status_class", "latency_bucket", "calls")
  SELECT n."endpoint_id", (n."created_at" AT TIME ZONE 'UTC')::date, (n."status" / 100)::smallint,
    width_bucket(n."latency_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint,
    count(*)
  FROM new_rows n
  WHERE n."endpoint_id" IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("endpoint_id", "day", "status_class", "latency_bucket")
  DO UPDATE SET "calls" = e."calls" + excluded."calls";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Calls metered before this migration.
INSERT INTO "endpoint_daily" ("endpoint_id", "day", "status_class", "latency_bucket", "calls")
SELECT "endpoint_id", "day", "status_class", "latency_bucket", sum("calls")::int
FROM "usage_daily"
WHERE "endpoint_id" <> '00000000-0000-0000-0000-000000000000'
GROUP BY 1, 2, 3, 4;
