CREATE TABLE "sync_states" (
	"tenant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"snapshot_ts" timestamp with time zone,
	"differences" jsonb NOT NULL,
	"plan" jsonb NOT NULL,
	"missing_tickets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alerted_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "sync_states_tenant_id_account_id_pk" PRIMARY KEY("tenant_id","account_id")
);
--> statement-breakpoint
DROP INDEX "executions_one_open_per_slave_key";--> statement-breakpoint
DROP INDEX "signals_tenant_active_ticket_key";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "copy_magic" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "origin" text DEFAULT 'signal' NOT NULL;--> statement-breakpoint
ALTER TABLE "signals" ADD COLUMN "leg" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signals" ADD COLUMN "origin" text DEFAULT 'signal' NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "executions_one_open_per_slave_key" ON "executions" USING btree ("signal_id","slave_account_id") WHERE "executions"."action" in ('OPEN', 'PENDING_OPEN') and "executions"."origin" <> 'sync';--> statement-breakpoint
CREATE UNIQUE INDEX "signals_tenant_active_ticket_key" ON "signals" USING btree ("tenant_id","master_ticket","leg") WHERE "signals"."status" = 'active';