ALTER TABLE "accounts" ADD COLUMN "row_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The bridge keeps each polling slave's account and risk limit in memory (bridge/account-view.ts).
-- row_version moves whenever anything a poll could answer with changes — any column but
-- last_heartbeat (a poll's own sign of life, written every second) — so heartbeats, settings,
-- protection, pauses and deletes all move it; an explicit bump (risk limits below) is kept as set.
CREATE FUNCTION "accounts_row_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - 'last_heartbeat' - 'row_version') IS DISTINCT FROM (to_jsonb(OLD) - 'last_heartbeat' - 'row_version') THEN
    NEW.row_version := OLD.row_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_row_version" BEFORE UPDATE ON "accounts" FOR EACH ROW EXECUTE FUNCTION "accounts_row_version"();
--> statement-breakpoint
-- Every instance hears a new version when its transaction commits ("<id> <version>"); a deleted row
-- is announced with version -1 (forget it for good).
CREATE FUNCTION "accounts_announce_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('copybridge_accounts', OLD.id::text || ' -1');
    RETURN NULL;
  END IF;
  PERFORM pg_notify('copybridge_accounts', NEW.id::text || ' ' || NEW.row_version::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_announce_update" AFTER UPDATE ON "accounts" FOR EACH ROW WHEN (NEW.row_version <> OLD.row_version) EXECUTE FUNCTION "accounts_announce_version"();
--> statement-breakpoint
CREATE TRIGGER "accounts_announce_delete" AFTER DELETE ON "accounts" FOR EACH ROW EXECUTE FUNCTION "accounts_announce_version"();
--> statement-breakpoint
-- A risk limit travels with every poll's answer: its change moves its account's version.
CREATE FUNCTION "risk_limits_bump_account"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  UPDATE accounts SET row_version = row_version + 1 WHERE tenant_id = r.tenant_id AND id = r.account_id;
  IF TG_OP = 'UPDATE' AND (OLD.tenant_id, OLD.account_id) IS DISTINCT FROM (NEW.tenant_id, NEW.account_id) THEN
    UPDATE accounts SET row_version = row_version + 1 WHERE tenant_id = OLD.tenant_id AND id = OLD.account_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "risk_limits_bump_account" AFTER INSERT OR UPDATE OR DELETE ON "risk_limits" FOR EACH ROW EXECUTE FUNCTION "risk_limits_bump_account"();
--> statement-breakpoint
-- Bridge instances keep API keys in memory (bridge/key-cache.ts): every change of a key but its
-- last use (written once a minute) is announced by its public id when it commits — disabled,
-- enabled, deleted, deleted with its account or its organisation, whatever code path made it.
CREATE FUNCTION "api_keys_announce_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'last_used_at') IS NOT DISTINCT FROM (to_jsonb(OLD) - 'last_used_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('copybridge_api_keys', OLD.key_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "api_keys_announce_change" AFTER UPDATE OR DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "api_keys_announce_change"();
