CREATE INDEX "executions_tenant_created_id_idx" ON "executions" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "executions_slave_created_id_idx" ON "executions" USING btree ("slave_account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "signals_tenant_created_id_idx" ON "signals" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "signals_active_created_id_idx" ON "signals" USING btree ("tenant_id","created_at","id") WHERE "signals"."status" = 'active';