CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"caller_account_id" uuid NOT NULL,
	"provider_account_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"status_class" smallint NOT NULL,
	"latency_bucket" smallint NOT NULL,
	"calls" integer NOT NULL,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"estimated_calls" integer NOT NULL,
	CONSTRAINT "usage_daily_pk" PRIMARY KEY("caller_account_id","day","provider_account_id","endpoint_id","key_id","status_class","latency_bucket")
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_warnings" (
	"account_id" uuid NOT NULL,
	"period" text NOT NULL,
	"level" smallint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quota_warnings_account_id_period_level_pk" PRIMARY KEY("account_id","period","level")
);
--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "streamed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_caller_account_id_accounts_id_fk" FOREIGN KEY ("caller_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_warnings" ADD CONSTRAINT "quota_warnings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_daily_provider_day_idx" ON "usage_daily" USING btree ("provider_account_id","day");--> statement-breakpoint
CREATE INDEX "support_messages_user_created_idx" ON "support_messages" USING btree ("user_id","created_at");--> statement-breakpoint
-- Daily roll-up kept by the database itself: each INSERT into usage_events (the metering writer's
-- batches) adds its rows, grouped, to usage_daily in the same statement. Latency buckets:
-- LATENCY_BOUNDS_MS in src/modules/usage/period.ts (change both together).
CREATE FUNCTION "usage_daily_add"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "usage_events_daily" AFTER INSERT ON "usage_events" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "usage_daily_add"();
--> statement-breakpoint
-- Calls metered before this migration.
INSERT INTO "usage_daily" ("day", "caller_account_id", "provider_account_id", "endpoint_id", "key_id",
  "status_class", "latency_bucket", "calls", "prompt_tokens", "completion_tokens", "estimated_calls")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "caller_account_id",
  coalesce("provider_account_id", '00000000-0000-0000-0000-000000000000'),
  coalesce("endpoint_id", '00000000-0000-0000-0000-000000000000'),
  coalesce("key_id", '00000000-0000-0000-0000-000000000000'),
  ("status" / 100)::smallint,
  width_bucket("latency_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint,
  count(*), coalesce(sum("prompt_tokens"), 0), coalesce(sum("completion_tokens"), 0),
  count(*) FILTER (WHERE "tokens_estimated")
FROM "usage_events"
GROUP BY 1, 2, 3, 4, 5, 6, 7;
