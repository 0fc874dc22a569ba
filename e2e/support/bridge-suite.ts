/**
 * The hooks every bridge API suite repeats, once: one database and one server process per suite,
 * a fresh tenant with a master and `slaves` slaves (API keys included, support/bridge.ts) before
 * each test, everything closed and dropped after the suite. `use` receives the state for each
 * test, so a suite keeps its own `let server, t, b` and its tests read as before.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { setUpBridge, type BridgeTenant } from "./bridge.ts";
import { createTestDatabase, type DbKind, type TestDatabase } from "./databases.ts";
import { startServer, type RunningServer } from "./server.ts";
import { signUp, type SignedIn } from "./tenant.ts";

export interface BridgeSuiteState {
  server: RunningServer;
  t: SignedIn;
  b: BridgeTenant;
}

export function useBridgeSuite(kind: DbKind, slaves: number, use: (state: BridgeSuiteState) => void): void {
  let db: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let b: BridgeTenant | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  beforeEach(async () => {
    await b?.close();
    const running = server!;
    const t = await signUp(running.url);
    b = await setUpBridge(t.api, running.url, slaves);
    use({ server: running, t, b });
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });
}
