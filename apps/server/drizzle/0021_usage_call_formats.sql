ALTER TABLE "usage_events" ADD COLUMN "client_format" text;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "upstream_format" text;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "requested_endpoint_id" uuid;