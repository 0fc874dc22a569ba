/**
 * The app under test: a fresh database of one kind and the real server process serving the built
 * dashboard (web/dist), torn down together.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type DbKind, type TestDatabase } from "../../support/databases.ts";
import { Api } from "../../support/http.ts";
import { startServer, type RunningServer } from "../../support/server.ts";

const DIST_DIR = fileURLToPath(new URL("../../../web/dist/", import.meta.url));
const DIST_INDEX = join(DIST_DIR, "index.html");

/**
 * A private copy of web/dist, so a rebuild during the run (other work in the same tree) cannot
 * swap the hashed chunks under an open page. Retries while a build is half-written.
 */
async function snapshotDist(): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "cb-web-"));
    cpSync(DIST_DIR, dir, { recursive: true });
    const index = existsSync(join(dir, "index.html")) ? readFileSync(join(dir, "index.html"), "utf8") : "";
    const assets = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    if (index && assets.every((a) => existsSync(join(dir, a)))) return dir;
    rmSync(dir, { recursive: true, force: true });
    if (attempt >= 20) throw new Error("web/dist is incomplete (a build in progress?): run npm run build");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface App {
  /** Base URL of the server, e.g. http://127.0.0.1:43123 */
  url: string;
  /** An unauthenticated JSON client for this server. */
  api: Api;
  server: RunningServer;
  db: TestDatabase;
  /** Stops the server, drops the database and removes the dashboard copy. */
  stop(): Promise<void>;
}

/**
 * Starts the server on a fresh `kind` database, serving a private copy of the built dashboard;
 * fails early when the dashboard is not built. `env` adds server settings (e.g. SMTP_URL for a
 * fake mail server).
 */
export async function startApp(kind: DbKind, env: Record<string, string> = {}): Promise<App> {
  if (!existsSync(DIST_INDEX)) {
    throw new Error(`web/dist/index.html is missing: run npm run build first (browser suites test the built dashboard)`);
  }
  const webDist = await snapshotDist();
  const db = await createTestDatabase(kind);
  let server: RunningServer;
  try {
    server = await startServer({ ...env, ...db.env, WEB_DIST: webDist });
  } catch (error) {
    await db.drop();
    rmSync(webDist, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    api: new Api(server.url),
    server,
    db,
    stop: async () => {
      await server.stop();
      await db.drop();
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}
