ALTER TABLE "ai_endpoints" ADD COLUMN "protocol" text DEFAULT 'openai' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "tool" text;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "bytes" integer;