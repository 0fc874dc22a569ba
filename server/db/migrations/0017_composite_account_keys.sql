-- A slave's orders and position links reference their account WITHIN their tenant: one composite
-- foreign key (tenant_id, slave_account_id) → accounts (tenant_id, id) replaces the two that
-- checked tenant_id against tenants and slave_account_id against accounts apart. The database now
-- refuses an order or a link whose account is another tenant's, and each inserted row takes one
-- check fewer (each check a SELECT … FOR KEY SHARE; about 9 % of PostgreSQL's CPU per copied order
-- went to foreign-key checks, docs/benchmarks.md). Deleting a tenant still deletes them: tenants →
-- accounts → these rows, each ON DELETE CASCADE.
CREATE UNIQUE INDEX "accounts_tenant_id_id_key" ON "accounts" USING btree ("tenant_id","id");
--> statement-breakpoint
ALTER TABLE "executions" DROP CONSTRAINT "executions_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "executions" DROP CONSTRAINT "executions_slave_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "position_links" DROP CONSTRAINT "position_links_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "position_links" DROP CONSTRAINT "position_links_slave_account_id_accounts_id_fk";
--> statement-breakpoint
-- Each is checked against the history as it is added (the migration's transaction holds writes to
-- the table meanwhile: seconds for millions of orders).
ALTER TABLE "executions" ADD CONSTRAINT "executions_slave_account_fk" FOREIGN KEY ("tenant_id","slave_account_id") REFERENCES "public"."accounts"("tenant_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "position_links" ADD CONSTRAINT "position_links_slave_account_fk" FOREIGN KEY ("tenant_id","slave_account_id") REFERENCES "public"."accounts"("tenant_id","id") ON DELETE cascade ON UPDATE no action;
