ALTER TABLE "api_keys" ADD COLUMN "tools" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "tools_read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "disabled_tools" text[] DEFAULT '{}' NOT NULL;