-- Audit logs are only ever read per tenant, newest first: key them by (tenant_id, id) so no plan
-- walks another tenant's newer rows (the old key on id alone invited a backward pkey scan).
ALTER TABLE "audit_logs" DROP CONSTRAINT "audit_logs_pkey";--> statement-breakpoint
DROP INDEX "audit_logs_tenant_id_idx";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id");
