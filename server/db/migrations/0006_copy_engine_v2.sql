CREATE TABLE "copy_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"slave_account_id" uuid NOT NULL,
	"settings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "day_start_equity" numeric;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "broker_day" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "close_only_code" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "close_only_reason" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "close_only_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "close_only_resumed_day" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "default_spec" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "copy_settings" ADD CONSTRAINT "copy_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_settings" ADD CONSTRAINT "copy_settings_slave_account_id_accounts_id_fk" FOREIGN KEY ("slave_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "copy_settings_slave_key" ON "copy_settings" USING btree ("tenant_id","slave_account_id");