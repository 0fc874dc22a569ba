/**
 * Composition root: config → database (PGlite under DATA_DIR, or PostgreSQL) → migrations →
 * HTTP/WS server on one port → background jobs (and, on PGlite, the local backup socket; on
 * PostgreSQL, LISTEN/NOTIFY with the other instances, realtime/cluster.ts).
 * SIGINT/SIGTERM close everything in order: the HTTP server, the jobs (which give back their
 * leases), the cluster link, then the database, so PGlite flushes to disk and its data folder
 * lock is released.
 */
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { runMigrations } from "./db/migrate.ts";
import { serveBackups, type BackupSocket } from "./db/backup-socket.ts";
import { buildApp } from "./http/app.ts";
import { startBackgroundWork } from "./jobs/start-jobs.ts";
import type { AppContext } from "./http/context.ts";
import { RealtimeHub } from "./realtime/hub.ts";
import { startCluster, type Cluster } from "./realtime/cluster.ts";
import { SecretBox } from "./features/api-keys/secret-box.ts";
import { OrderDelivery } from "./features/copy-engine/delivery/delivery.ts";
import { DomainEvents } from "./events/domain-events.ts";
import { openAccountLocks } from "./db/account-locks.ts";
import { startAccountViewFeed } from "./features/bridge/account-view.ts";

async function main(): Promise<void> {
  if (process.env.BENCH_LOOP_DELAY_FILE) (await import("./loop-delay-probe.ts")).startLoopDelayProbe(process.env.BENCH_LOOP_DELAY_FILE); // benchmarks only
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  await runMigrations(database);
  const ctx: AppContext = {
    config,
    db: database.db,
    relaxedDb: database.relaxedDb,
    idempotencyDb: database.idempotencyDb,
    dbKind: database.kind,
    hub: new RealtimeHub(),
    secrets: SecretBox.load(config.secretKeyHex, config.dataDir),
    // One process per embedded data folder: every order passes through its registry (idle marks hold).
    delivery: new OrderDelivery({ trustIdle: !config.databaseUrl }),
    events: new DomainEvents((err, name) => console.error(`domain event ${name} listener failed:`, err)),
    // Snapshot processing of one account runs on one instance at a time (sync/service.ts).
    ...(config.databaseUrl ? { accountLocks: openAccountLocks(config.databaseUrl) } : {}),
  };
  const app = await buildApp(ctx);
  // Instances sharing a PostgreSQL hear each other's orders and dashboard messages; PGlite is one process.
  const cluster: Cluster | null = config.databaseUrl
    ? startCluster(ctx, { url: config.databaseUrl, safetyNetMs: config.deliverySafetyNetMs, log: (msg, err) => app.log.warn({ err }, msg) })
    : null;
  // Polls answer from an in-memory view of their slave while every account change is heard (account-view.ts).
  const accountFeed = await startAccountViewFeed(ctx, database, (msg, err) => app.log.warn({ err }, msg)).catch((err: unknown) => {
    app.log.error({ err }, "cannot hear account changes; polls read their account from the database");
    return null;
  });
  const stopJobs = startBackgroundWork(ctx, (msg, err) => app.log.error({ err }, msg));
  let backups: BackupSocket | null = null;
  const { driver } = database;
  if (driver.kind === "pglite" && driver.lock) {
    const lock = driver.lock;
    // Without the socket the server still copies trades; only `npm run backup` is refused, saying so.
    backups = await serveBackups(driver.client, config.dataDir, (msg, err) => app.log.error({ err }, msg)).catch((err: unknown) => {
      app.log.error({ err }, "cannot serve backups");
      return null;
    });
    // The lock file is where `npm run backup` finds the running server.
    if (backups) lock.update({ control: backups.path });
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await app.close().catch((err: unknown) => app.log.error({ err }, "close failed"));
    await stopJobs().catch((err: unknown) => app.log.error({ err }, "stopping jobs failed"));
    await accountFeed?.close().catch((err: unknown) => app.log.error({ err }, "closing the account change feed failed"));
    await cluster?.close().catch((err: unknown) => app.log.error({ err }, "closing the LISTEN connection failed"));
    await ctx.accountLocks?.close().catch((err: unknown) => app.log.error({ err }, "closing the account lock pool failed"));
    await backups?.close().catch((err: unknown) => app.log.error({ err }, "closing the backup socket failed"));
    await database.close().catch((err: unknown) => app.log.error({ err }, "database close failed"));
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const address = await app.listen({ port: config.port, host: config.host });
  const where = database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL";
  // Printed whatever LOG_LEVEL is: people and tools (PORT=0) read the address from it.
  console.info(`CopyBridge listening on ${address} (database: ${where})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
