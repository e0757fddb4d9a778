-- usage_events.caller_account_id without a foreign key: see src/db/schema/usage-events.ts.
ALTER TABLE "usage_events" DROP CONSTRAINT "usage_events_caller_account_id_accounts_id_fk";
