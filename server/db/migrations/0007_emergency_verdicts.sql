DROP INDEX "accounts_tenant_role_number_key";--> statement-breakpoint
DROP INDEX "accounts_one_master_per_tenant";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "paused_by" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "executions_one_open_per_slave_key" ON "executions" USING btree ("signal_id","slave_account_id") WHERE "executions"."action" in ('OPEN', 'PENDING_OPEN');--> statement-breakpoint
CREATE INDEX "signals_active_master_closed_idx" ON "signals" USING btree ("master_closed_at") WHERE "signals"."status" = 'active' and "signals"."master_closed_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_tenant_role_number_key" ON "accounts" USING btree ("tenant_id","role","account_number") WHERE "accounts"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_master_per_tenant" ON "accounts" USING btree ("tenant_id") WHERE "accounts"."role" = 'MASTER' and "accounts"."deleted_at" is null;