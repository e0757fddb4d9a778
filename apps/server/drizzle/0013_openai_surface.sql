ALTER TABLE "api_keys" ADD COLUMN "allowed_origins" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_endpoints" ADD COLUMN "protocols" text[];