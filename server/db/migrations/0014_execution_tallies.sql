CREATE TABLE "execution_tallies" (
	"tenant_id" uuid NOT NULL,
	"slave_account_id" uuid NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"successful" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "execution_tallies_tenant_id_slave_account_id_pk" PRIMARY KEY("tenant_id","slave_account_id")
);
--> statement-breakpoint
CREATE TABLE "execution_tally_deltas" (
	"tenant_id" uuid NOT NULL,
	"slave_account_id" uuid NOT NULL,
	"total" integer NOT NULL,
	"successful" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "execution_tallies" ADD CONSTRAINT "execution_tallies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_tallies" ADD CONSTRAINT "execution_tallies_slave_account_id_accounts_id_fk" FOREIGN KEY ("slave_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_tally_deltas_slave_idx" ON "execution_tally_deltas" USING btree ("tenant_id","slave_account_id");--> statement-breakpoint
-- The summary's class of an order: (counted, successful) = (opening and not skipped, filled or placed).
-- Statement-level triggers with transition tables: one aggregated insert per statement, however many
-- orders it wrote (an OPEN to 500 slaves is one statement). Insert-only: no lock on a tally row.
CREATE FUNCTION "execution_tally_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO execution_tally_deltas (tenant_id, slave_account_id, total, successful)
  SELECT n.tenant_id, n.slave_account_id, count(*), count(*) FILTER (WHERE n.status IN ('filled', 'placed'))
  FROM new_rows n
  WHERE n.action IN ('OPEN', 'PENDING_OPEN') AND n.status <> 'skipped'
  GROUP BY n.tenant_id, n.slave_account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "execution_tally_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO execution_tally_deltas (tenant_id, slave_account_id, total, successful)
  SELECT c.tenant_id, c.slave_account_id, sum(c.total), sum(c.successful)
  FROM (
    SELECT o.tenant_id, o.slave_account_id, -1 AS total, CASE WHEN o.status IN ('filled', 'placed') THEN -1 ELSE 0 END AS successful
    FROM old_rows o WHERE o.action IN ('OPEN', 'PENDING_OPEN') AND o.status <> 'skipped'
    UNION ALL
    SELECT n.tenant_id, n.slave_account_id, 1, CASE WHEN n.status IN ('filled', 'placed') THEN 1 ELSE 0 END
    FROM new_rows n WHERE n.action IN ('OPEN', 'PENDING_OPEN') AND n.status <> 'skipped'
  ) c
  GROUP BY c.tenant_id, c.slave_account_id
  HAVING sum(c.total) <> 0 OR sum(c.successful) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "executions_tally_insert" AFTER INSERT ON "executions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "execution_tally_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "executions_tally_update" AFTER UPDATE ON "executions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "execution_tally_on_update"();
--> statement-breakpoint
-- The history so far, counted after the triggers exist (they lock out writers until this migration commits).
INSERT INTO "execution_tallies" ("tenant_id", "slave_account_id", "total", "successful")
SELECT "tenant_id", "slave_account_id", count(*), count(*) FILTER (WHERE "status" IN ('filled', 'placed'))
FROM "executions"
WHERE "action" IN ('OPEN', 'PENDING_OPEN') AND "status" <> 'skipped'
GROUP BY "tenant_id", "slave_account_id";
