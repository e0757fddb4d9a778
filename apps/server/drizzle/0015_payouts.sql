CREATE TABLE "earnings_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"charge_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"source" text NOT NULL,
	"gross" integer NOT NULL,
	"fee" integer NOT NULL,
	"net" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"payout_id" uuid
);
--> statement-breakpoint
CREATE TABLE "invoice_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"provider_ref" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_account_id" uuid NOT NULL,
	"period" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"waiting" text,
	"destination" text,
	"provider_ref" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_accounts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"holder_name" text,
	"country" text,
	"last4" text,
	"stripe_account_id" text,
	"ready" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "earnings_ledger_charge_source_unique" ON "earnings_ledger" USING btree ("charge_id","source");--> statement-breakpoint
CREATE INDEX "earnings_ledger_provider_idx" ON "earnings_ledger" USING btree ("provider_account_id","payout_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_refunds_provider_ref_unique" ON "invoice_refunds" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "invoice_refunds_invoice_idx" ON "invoice_refunds" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_provider_period_unique" ON "payouts" USING btree ("provider_account_id","period");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "usage_events_provider_unbilled_idx" ON "usage_events" USING btree ("provider_account_id") WHERE "usage_events"."cost_picos" is not null and "usage_events"."charge_id" is null;--> statement-breakpoint
-- Earnings already collected before payouts existed: one ledger row per charge of a paid invoice,
-- dated when the invoice was last updated (its payment), so the next month's close pays them.
INSERT INTO "earnings_ledger" ("provider_account_id", "kind", "charge_id", "invoice_id", "source", "gross", "fee", "net", "currency", "created_at")
SELECT c."provider_account_id", 'earning', c."id", c."invoice_id", 'earning', c."amount", c."fee", c."amount" - c."fee", c."currency", i."updated_at"
FROM "marketplace_charges" c JOIN "invoices" i ON i."id" = c."invoice_id"
WHERE i."status" = 'paid';
