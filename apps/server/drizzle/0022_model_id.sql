ALTER TABLE "ai_endpoints" ADD COLUMN "model_id" text;--> statement-breakpoint
CREATE INDEX "ai_endpoints_model_id_idx" ON "ai_endpoints" USING btree ("model_id");