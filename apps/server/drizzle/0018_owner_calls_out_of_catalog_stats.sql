-- The catalog's figures (endpoint_daily) count the calls of other accounts only: a provider's own
-- test calls to its endpoint are not what callers choose by (issue 38, issue 44 item 3). The
-- metering trigger leaves them out from now on, and the roll-up is rebuilt from usage_daily
-- without them.
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
    AND n."caller_account_id" IS DISTINCT FROM n."provider_account_id"
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("endpoint_id", "day", "status_class", "latency_bucket")
  DO UPDATE SET "calls" = e."calls" + excluded."calls";
  RETURN NULL;
END
$$;
--> statement-breakpoint
DELETE FROM "endpoint_daily";
--> statement-breakpoint
INSERT INTO "endpoint_daily" ("endpoint_id", "day", "status_class", "latency_bucket", "calls")
SELECT "endpoint_id", "day", "status_class", "latency_bucket", sum("calls")::int
FROM "usage_daily"
WHERE "endpoint_id" <> '00000000-0000-0000-0000-000000000000'
  AND "caller_account_id" <> "provider_account_id"
GROUP BY 1, 2, 3, 4;
