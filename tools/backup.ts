/**
 * `npm run backup -- FILE`: a consistent backup of the embedded database in DATA_DIR (default
 * ./data, as for `npm start`), written to FILE (mode 0600: it holds the secret key).
 *
 * While a server runs on DATA_DIR it holds the folder's lock, so the backup is made by that
 * server, asked over the local socket named in `DATA_DIR/db.lock` (server/db/backup-socket.ts);
 * the server keeps serving meanwhile. With no server running the tool opens the folder itself,
 * holding the lock so that no server starts until it is done. PostgreSQL deployments use pg_dump.
 */
import { renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../server/config.ts";
import { createBackup } from "../server/db/backup-file.ts";
import { requestBackup } from "../server/db/backup-socket.ts";
import { openDatabase } from "../server/db/client.ts";
import { liveHolder } from "../server/db/data-dir-lock.ts";

async function backupBytes(dataDir: string): Promise<{ bytes: Buffer; from: string }> {
  const holder = liveHolder(dataDir);
  if (holder) {
    // A server records its socket once it listens; a tool holding the folder never does.
    if (!holder.control) throw new Error(`process ${holder.pid} holds ${dataDir} but does not serve backups (yet): a server still starting, or another backup; try again in a moment`);
    return { bytes: await requestBackup(holder.control), from: `running server, process ${holder.pid}` };
  }
  const database = await openDatabase({ dataDir });
  try {
    if (database.driver.kind !== "pglite") throw new Error("unreachable: no URL was given");
    return { bytes: await createBackup(database.driver.client, dataDir), from: "the data folder (no server running)" };
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || file.startsWith("-")) throw new Error("usage: npm run backup -- FILE   (backs up DATA_DIR, default ./data)");
  const config = loadConfig();
  if (config.databaseUrl) throw new Error("DATABASE_URL is set: back PostgreSQL up with pg_dump (see README.md, Backups)");
  // npm runs scripts from the package root; FILE is meant relative to where the command was typed.
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const { bytes, from } = await backupBytes(config.dataDir);
  const tmp = `${target}.partial-${process.pid}`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  renameSync(tmp, target);
  console.info(`Backup of ${config.dataDir} (${from}) written to ${target}: ${bytes.length} bytes`);
}

main().catch((err: unknown) => {
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
