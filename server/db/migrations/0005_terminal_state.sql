CREATE TABLE "account_snapshots" (
	"tenant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"positions" jsonb NOT NULL,
	"orders" jsonb NOT NULL,
	CONSTRAINT "account_snapshots_tenant_id_account_id_pk" PRIMARY KEY("tenant_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "symbol_specs" (
	"tenant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"digits" integer NOT NULL,
	"point" numeric NOT NULL,
	"volume_min" numeric NOT NULL,
	"volume_step" numeric NOT NULL,
	"volume_max" numeric NOT NULL,
	"contract_size" numeric NOT NULL,
	"tick_size" numeric NOT NULL,
	"tick_value" numeric NOT NULL,
	"trade_mode" text NOT NULL,
	"stops_level" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "symbol_specs_tenant_id_account_id_symbol_pk" PRIMARY KEY("tenant_id","account_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "margin" numeric;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "free_margin" numeric;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "leverage" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "margin_mode" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "broker_utc_offset_sec" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "report_hash" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "report_signature" text;--> statement-breakpoint
ALTER TABLE "account_snapshots" ADD CONSTRAINT "account_snapshots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_snapshots" ADD CONSTRAINT "account_snapshots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "symbol_specs" ADD CONSTRAINT "symbol_specs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "symbol_specs" ADD CONSTRAINT "symbol_specs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;