ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "routes" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_calls" integer;--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "routing" jsonb;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "attempts" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "cache_hit" boolean DEFAULT false NOT NULL;