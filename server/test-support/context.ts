/**
 * In-process test context: a migrated database of the requested kind (PGlite in memory, or a fresh
 * PostgreSQL database from TEST_DATABASE_URL), a config and a hub — for service-level tests that
 * need real SQL but no HTTP.
 */
import { loadConfig } from "../config.ts";
import { openDatabase, type Database, type Db } from "../db/client.ts";
import { accounts, tenants } from "../db/schema.ts";

type AccountRow = typeof accounts.$inferSelect;
import { runMigrations } from "../db/migrate.ts";
import { watchStatements } from "../db/pglite-statements.ts";
import type { AppContext } from "../http/context.ts";
import { RealtimeHub } from "../realtime/hub.ts";
import { SecretBox } from "../features/api-keys/secret-box.ts";
import { OrderDelivery } from "../features/copy-engine/delivery/delivery.ts";
import { DomainEvents } from "../events/domain-events.ts";
import { createTestDatabase, migratedPgliteDump, type DbKind, type TestDatabase } from "../../e2e/support/databases.ts";

export interface TestContext {
  ctx: AppContext;
  database: Database;
  close(): Promise<void>;
}

export async function createTestContext(kind: DbKind = "pglite", env: Record<string, string> = {}): Promise<TestContext> {
  const testDb: TestDatabase | null = kind === "postgres" ? await createTestDatabase("postgres") : null;
  // PGlite in memory, from the migrated template's dump (creating one took 7–15 s per context).
  const database = await openDatabase(testDb ? testDb.options : { dataDir: "memory://", loadDataDir: await migratedPgliteDump() });
  await runMigrations(database);
  const config = loadConfig({ NODE_ENV: "test", JOBS_DISABLED: "true", ...env, ...(testDb ? testDb.env : {}) });
  const ctx: AppContext = {
    config,
    db: database.db,
    relaxedDb: database.relaxedDb,
    idempotencyDb: database.idempotencyDb,
    dbKind: database.kind,
    hub: new RealtimeHub(),
    secrets: SecretBox.fromHex("ab".repeat(32)),
    delivery: new OrderDelivery(),
    events: new DomainEvents(),
  };
  return {
    ctx,
    database,
    close: async () => {
      await database.close();
      await testDb?.drop();
    },
  };
}

/** A new tenant with one MT4 slave account (number 7001); returns their ids. */
export async function seedTenantWithSlave(db: Db): Promise<{ tenantId: string; slaveId: string }> {
  const tenantId = await seedTenant(db);
  const [slave] = await db
    .insert(accounts)
    .values({ tenantId, accountNumber: "7001", broker: "Pepperstone", platform: "MT4", role: "SLAVE" })
    .returning();
  if (!slave) throw new Error("account insert returned nothing");
  return { tenantId, slaveId: slave.id };
}

/**
 * A new tenant copying from an MT5 master (login 50001234) to MT4 slaves numbered `slaveNumbers`,
 * every account with a fresh sign of life (connected); returns the rows.
 */
export async function seedCopyTenant(db: Db, prefix: string, slaveNumbers: string[]): Promise<{ tenantId: string; master: AccountRow; slaves: AccountRow[] }> {
  const tenantId = await seedTenant(db, prefix);
  const [master] = await db
    .insert(accounts)
    .values({ tenantId, accountNumber: "50001234", login: "50001234", broker: "IC", platform: "MT5", role: "MASTER", lastHeartbeat: new Date() })
    .returning();
  if (!master) throw new Error("account insert returned nothing");
  const slaves = await db
    .insert(accounts)
    .values(slaveNumbers.map((n) => ({ tenantId, accountNumber: n, broker: "Pepperstone", platform: "MT4" as const, role: "SLAVE" as const, lastHeartbeat: new Date() })))
    .returning();
  return { tenantId, master, slaves };
}

let tenantSeq = 0;

/** A new tenant named "Desk" whose slug is unique within the database (`prefix`, a counter, the time); returns its id. */
export async function seedTenant(db: Db, prefix = "desk"): Promise<string> {
  tenantSeq += 1;
  const [tenant] = await db.insert(tenants).values({ name: "Desk", slug: `${prefix}-${tenantSeq}-${Date.now()}` }).returning();
  if (!tenant) throw new Error("tenant insert returned nothing");
  return tenant.id;
}

/**
 * Records the SQL text of every statement later sent through `db`'s driver client (the handle under
 * Drizzle that db/raw.ts also reaches), for tests that count statements. Returns the live list;
 * empty it with `list.length = 0`.
 */
export function recordStatements(db: Db): string[] {
  const texts: string[] = [];
  const client = (db as unknown as { session: { client: { query: (...a: unknown[]) => Promise<unknown> } } }).session.client;
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0];
    texts.push(typeof first === "string" ? first : String((first as { text?: string }).text));
    return query(...args);
  };
  // On PGlite db/raw.ts sends its statements in one protocol message each, not through `query`.
  watchStatements(client, (text) => texts.push(text));
  return texts;
}
