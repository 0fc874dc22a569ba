CREATE TABLE "account_samples_15m" (
	"tenant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"equity_high" numeric NOT NULL,
	"equity_low" numeric NOT NULL,
	"equity" numeric NOT NULL,
	"balance" numeric NOT NULL,
	"drawdown_pct" numeric,
	CONSTRAINT "account_samples_15m_account_id_ts_pk" PRIMARY KEY("account_id","ts")
);
--> statement-breakpoint
ALTER TABLE "account_samples_15m" ADD CONSTRAINT "account_samples_15m_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_samples_15m" ADD CONSTRAINT "account_samples_15m_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_samples_15m_tenant_ts_idx" ON "account_samples_15m" USING btree ("tenant_id","ts");