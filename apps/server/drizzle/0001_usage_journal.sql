CREATE TABLE "meter_batches" (
	"segment" text PRIMARY KEY NOT NULL,
	"committed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "tokens_estimated" boolean DEFAULT false NOT NULL;