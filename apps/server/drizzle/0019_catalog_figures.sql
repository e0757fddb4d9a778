CREATE TABLE "endpoint_minute" (
	"endpoint_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"ok" integer NOT NULL,
	"failed" integer NOT NULL,
	"lead_failed" integer NOT NULL,
	"tail_failed" integer NOT NULL,
	"max_failed_run" integer NOT NULL,
	CONSTRAINT "endpoint_minute_pk" PRIMARY KEY("endpoint_id","minute")
);
--> statement-breakpoint
CREATE TABLE "endpoint_ttft_daily" (
	"endpoint_id" uuid NOT NULL,
	"day" date NOT NULL,
	"bucket" smallint NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "endpoint_ttft_daily_pk" PRIMARY KEY("endpoint_id","day","bucket")
);
--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "first_byte_ms" integer;--> statement-breakpoint
ALTER TABLE "endpoint_daily" ADD COLUMN "completion_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "endpoint_daily" ADD COLUMN "generation_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The catalog's figures callers choose by (issue 44 item 3, decision 057), kept by the metering
-- trigger from other accounts' calls: endpoint_daily also sums completion tokens and generation
-- time (tokens per second), endpoint_ttft_daily buckets a stream's first byte, endpoint_minute
-- says which minutes were up (a success and no run of 3 failures), pruned past 31 days.
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
  INSERT INTO "endpoint_daily" AS e ("endpoint_id", "day", "status_class", "latency_bucket", "calls",
    "completion_tokens", "generation_ms")
  SELECT n."endpoint_id", (n."created_at" AT TIME ZONE 'UTC')::date, (n."status" / 100)::smallint,
    width_bucket(n."latency_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint,
    count(*),
    coalesce(sum(n."completion_tokens") FILTER (WHERE n."status" / 100 = 2 AND NOT n."cache_hit" AND n."completion_tokens" > 0), 0),
    coalesce(sum(greatest(n."latency_ms" - coalesce(n."first_byte_ms", 0), 1))
      FILTER (WHERE n."status" / 100 = 2 AND NOT n."cache_hit" AND n."completion_tokens" > 0), 0)
  FROM new_rows n
  WHERE n."endpoint_id" IS NOT NULL
    AND n."caller_account_id" IS DISTINCT FROM n."provider_account_id"
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("endpoint_id", "day", "status_class", "latency_bucket")
  DO UPDATE SET "calls" = e."calls" + excluded."calls",
    "completion_tokens" = e."completion_tokens" + excluded."completion_tokens",
    "generation_ms" = e."generation_ms" + excluded."generation_ms";
  INSERT INTO "endpoint_ttft_daily" AS t ("endpoint_id", "day", "bucket", "calls")
  SELECT n."endpoint_id", (n."created_at" AT TIME ZONE 'UTC')::date,
    width_bucket(n."first_byte_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint,
    count(*)
  FROM new_rows n
  WHERE n."endpoint_id" IS NOT NULL AND n."first_byte_ms" IS NOT NULL AND n."streamed"
    AND n."status" / 100 = 2 AND NOT n."cache_hit"
    AND n."caller_account_id" IS DISTINCT FROM n."provider_account_id"
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT ("endpoint_id", "day", "bucket") DO UPDATE SET "calls" = t."calls" + excluded."calls";
  -- Per minute: successes numbered in call order; the failures after the k-th success form run k.
  INSERT INTO "endpoint_minute" AS m ("endpoint_id", "minute", "ok", "failed", "lead_failed", "tail_failed", "max_failed_run")
  SELECT r."endpoint_id", r."minute", max(r."grp")::int, sum(r."fails")::int,
    coalesce(max(r."fails") FILTER (WHERE r."grp" = 0), 0)::int,
    (array_agg(r."fails" ORDER BY r."grp" DESC))[1]::int,
    max(r."fails")::int
  FROM (
    SELECT c."endpoint_id", c."minute", c."grp", count(*) FILTER (WHERE NOT c."ok") AS "fails"
    FROM (
      SELECT n."endpoint_id", date_trunc('minute', n."created_at") AS "minute", n."status" / 100 = 2 AS "ok",
        count(*) FILTER (WHERE n."status" / 100 = 2)
          OVER (PARTITION BY n."endpoint_id", date_trunc('minute', n."created_at") ORDER BY n."created_at", n."id") AS "grp"
      FROM new_rows n
      WHERE n."endpoint_id" IS NOT NULL AND NOT n."cache_hit"
        AND n."caller_account_id" IS DISTINCT FROM n."provider_account_id"
        AND (n."status" / 100 = 2 OR n."status" >= 500 OR (n."status" = 429 AND n."error_code" IS NULL))
    ) c
    GROUP BY 1, 2, 3
  ) r
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT ("endpoint_id", "minute") DO UPDATE SET
    "max_failed_run" = greatest(m."max_failed_run", excluded."max_failed_run", m."tail_failed" + excluded."lead_failed"),
    "lead_failed" = CASE WHEN m."ok" = 0 THEN m."failed" + excluded."lead_failed" ELSE m."lead_failed" END,
    "tail_failed" = CASE WHEN excluded."ok" = 0 THEN m."tail_failed" + excluded."failed" ELSE excluded."tail_failed" END,
    "ok" = m."ok" + excluded."ok",
    "failed" = m."failed" + excluded."failed";
  DELETE FROM "endpoint_minute"
  WHERE "endpoint_id" IN (SELECT DISTINCT "endpoint_id" FROM new_rows WHERE "endpoint_id" IS NOT NULL)
    AND "minute" < now() - interval '31 days';
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The last 30 days' calls into the new roll-ups (TTFT starts empty: no first byte was stored).
INSERT INTO "endpoint_minute" ("endpoint_id", "minute", "ok", "failed", "lead_failed", "tail_failed", "max_failed_run")
SELECT r."endpoint_id", r."minute", max(r."grp")::int, sum(r."fails")::int,
  coalesce(max(r."fails") FILTER (WHERE r."grp" = 0), 0)::int,
  (array_agg(r."fails" ORDER BY r."grp" DESC))[1]::int,
  max(r."fails")::int
FROM (
  SELECT c."endpoint_id", c."minute", c."grp", count(*) FILTER (WHERE NOT c."ok") AS "fails"
  FROM (
    SELECT u."endpoint_id", date_trunc('minute', u."created_at") AS "minute", u."status" / 100 = 2 AS "ok",
      count(*) FILTER (WHERE u."status" / 100 = 2)
        OVER (PARTITION BY u."endpoint_id", date_trunc('minute', u."created_at") ORDER BY u."created_at", u."id") AS "grp"
    FROM "usage_events" u
    WHERE u."endpoint_id" IS NOT NULL AND NOT u."cache_hit" AND u."created_at" >= now() - interval '31 days'
      AND u."caller_account_id" IS DISTINCT FROM u."provider_account_id"
      AND (u."status" / 100 = 2 OR u."status" >= 500 OR (u."status" = 429 AND u."error_code" IS NULL))
  ) c
  GROUP BY 1, 2, 3
) r
GROUP BY 1, 2;
--> statement-breakpoint
UPDATE "endpoint_daily" e SET "completion_tokens" = s."tokens", "generation_ms" = s."ms"
FROM (
  SELECT u."endpoint_id", (u."created_at" AT TIME ZONE 'UTC')::date AS "day", (u."status" / 100)::smallint AS "status_class",
    width_bucket(u."latency_ms", ARRAY[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000,20000,50000,100000])::smallint AS "latency_bucket",
    sum(u."completion_tokens") AS "tokens", sum(greatest(u."latency_ms", 1)) AS "ms"
  FROM "usage_events" u
  WHERE u."endpoint_id" IS NOT NULL AND u."status" / 100 = 2 AND NOT u."cache_hit" AND u."completion_tokens" > 0
    AND u."caller_account_id" IS DISTINCT FROM u."provider_account_id"
  GROUP BY 1, 2, 3, 4
) s
WHERE e."endpoint_id" = s."endpoint_id" AND e."day" = s."day" AND e."status_class" = s."status_class"
  AND e."latency_bucket" = s."latency_bucket";
