/**
 * `npm run restore -- FILE DATA_DIR`: restores a backup made by `npm run backup` into DATA_DIR,
 * which must be missing or empty (it refuses anything else, a running server's folder included).
 * Then start the server with that DATA_DIR. PostgreSQL deployments use pg_restore.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { restoreBackup } from "../server/db/backup-file.ts";

async function main(): Promise<void> {
  const [file, dir] = process.argv.slice(2);
  if (!file || !dir) throw new Error("usage: npm run restore -- FILE DATA_DIR   (DATA_DIR must be empty or missing)");
  // npm runs scripts from the package root; paths are meant relative to where the command was typed.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dataDir = resolve(cwd, dir);
  const meta = await restoreBackup(readFileSync(resolve(cwd, file)), dataDir);
  const key = meta.secretKey ? "with its secret key" : "without a secret key: start it with the SECRET_KEY it used";
  console.info(`Restored the backup of ${meta.createdAt} into ${dataDir} (${key}). Start the server with DATA_DIR=${dataDir}.`);
}

main().catch((err: unknown) => {
  console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
