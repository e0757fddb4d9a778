CREATE TABLE "session_endings" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"account_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "notice" jsonb;