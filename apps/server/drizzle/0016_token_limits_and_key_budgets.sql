ALTER TABLE "api_keys" ADD COLUMN "tokens_per_minute" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "monthly_spend" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "tokens_per_minute" integer;