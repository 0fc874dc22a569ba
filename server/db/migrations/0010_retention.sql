CREATE TABLE "pruned_totals" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"signal_events" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_policies" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"closed_trades_days" integer NOT NULL,
	"audit_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "executions_tenant_created_idx";--> statement-breakpoint
ALTER TABLE "pruned_totals" ADD CONSTRAINT "pruned_totals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "executions_event_idx" ON "executions" USING btree ("event_id");