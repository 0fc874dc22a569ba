/**
 * The API-key cache of signed requests (issue 15): a key is served from memory for its TTL, but a
 * disabled or deleted key is refused on the very next request — on this instance (the change
 * drops the entry after commit) and on another instance on the same PostgreSQL (NOTIFY sent in
 * the change's transaction by a trigger), and a change made by any other path (a plain UPDATE) is
 * heard too, while the key's last use is not a change. A read that started before an invalidation
 * never puts the old row back. On PGlite and PostgreSQL.
 */
import { createHmac } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { openDatabase, type Database } from "../../db/client.ts";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../http/context.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { createApiKey, deleteApiKey, setApiKeyEnabled } from "../api-keys/service.ts";
import type { ApiKeyRow } from "../api-keys/mappers.ts";
import { startAccountViewFeed } from "./account-view.ts";
import { ApiKeyCache, keyCacheOf, startKeyInvalidation } from "./key-cache.ts";
import { verifySignedRequest } from "./signed-request.ts";

const row = (keyId: string, enabled = true) => ({ keyId, enabled }) as ApiKeyRow;

describe("ApiKeyCache", () => {
  it("serves a key for its TTL only", () => {
    let now = 1_000;
    const c = new ApiKeyCache(500, true, () => now);
    c.set("k", { row: row("k"), secret: "s" }, c.mark());
    expect(c.get("k")?.secret).toBe("s");
    now += 499;
    expect(c.get("k")).toBeDefined();
    now += 1;
    expect(c.get("k")).toBeUndefined();
  });

  it("drops an invalidated key, and does not store a row read before an invalidation", () => {
    const c = new ApiKeyCache(10_000);
    c.set("k", { row: row("k"), secret: "s" }, c.mark());
    const before = c.mark(); // a lookup starts reading the row…
    c.invalidate("k"); // …the key is disabled meanwhile…
    c.set("k", { row: row("k"), secret: "s" }, before); // …its (old) row must not come back
    expect(c.get("k")).toBeUndefined();
    c.set("k", { row: row("k", false), secret: "s" }, c.mark());
    expect(c.get("k")?.row.enabled).toBe(false);
  });

  it("serves and stores nothing while bypassed (the change feed is down)", () => {
    const c = new ApiKeyCache(10_000);
    c.set("k", { row: row("k"), secret: "s" }, c.mark());
    c.reset(false);
    expect(c.get("k")).toBeUndefined();
    c.set("k", { row: row("k"), secret: "s" }, c.mark());
    expect(c.get("k")).toBeUndefined();
    c.reset(true);
    c.set("k", { row: row("k"), secret: "s" }, c.mark());
    expect(c.get("k")).toBeDefined();
  });
});

/** A signed POST of `keyId` as the EA sends it (a fake request: verification reads only these fields). */
function signed(keyId: string, secret: string, body = "{}"): FastifyRequest {
  const ts = String(Math.floor(Date.now() / 1000));
  const path = "/v1/slave/orders/poll";
  const signature = createHmac("sha256", secret).update(`POST${path}${ts}`).update(body).digest("hex");
  return {
    headers: { "x-api-key": keyId, "x-ts": ts, "x-signature": signature },
    method: "POST",
    url: path,
    raw: { url: path },
    rawBody: Buffer.from(body),
    arrivedAtMs: Date.now(),
  } as unknown as FastifyRequest;
}

const verify = (ctx: AppContext, req: FastifyRequest) => verifySignedRequest({ db: ctx.db, secrets: ctx.secrets, cache: keyCacheOf(ctx) }, req, 60);

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

describe.each(databaseKinds())("API key cache on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  const feeds: { close(): Promise<void> }[] = [];
  let other: Database | null = null;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    const feed = startKeyInvalidation(t.ctx, () => undefined);
    if (feed) {
      feeds.push(feed);
      expect(await until(() => feed.connected, 5_000)).toBe(true);
    }
    // PGlite hears the keys' notices with the accounts' (account-view.ts).
    if (kind === "pglite") feeds.push(await startAccountViewFeed(t.ctx, t.database, () => undefined));
  });
  afterAll(async () => {
    for (const f of feeds) await f.close();
    await other?.close();
    await t?.close();
  });

  it("refuses a disabled key on the next request of this instance, and takes it back when enabled", async () => {
    const key = await createApiKey(t.ctx, tenantId, { name: "ea", scope: "SLAVE", accountId: slaveId, allowUnbound: false });
    await verify(t.ctx, signed(key.apiKey, key.secret));
    expect(keyCacheOf(t.ctx).get(key.apiKey)).toBeDefined(); // served from memory from now on
    await setApiKeyEnabled(t.ctx, tenantId, key.id, false);
    await expect(verify(t.ctx, signed(key.apiKey, key.secret))).rejects.toMatchObject({ code: "key_disabled" });
    await setApiKeyEnabled(t.ctx, tenantId, key.id, true);
    await expect(verify(t.ctx, signed(key.apiKey, key.secret))).resolves.toMatchObject({ key: { id: key.id } });
    await deleteApiKey(t.ctx, tenantId, key.id);
    await expect(verify(t.ctx, signed(key.apiKey, key.secret))).rejects.toMatchObject({ code: "unknown_key" });
  });

  it("refuses a key changed by any statement (a trigger announces it), and keeps it across a write of its last use", async () => {
    const key = await createApiKey(t.ctx, tenantId, { name: "ea-sql", scope: "SLAVE", accountId: slaveId, allowUnbound: false });
    await verify(t.ctx, signed(key.apiKey, key.secret));
    await t.ctx.db.execute(sql`update api_keys set last_used_at = now() where id = ${key.id}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(keyCacheOf(t.ctx).get(key.apiKey)).toBeDefined();
    // No service call, so no local drop: only the notice can do it.
    await t.ctx.db.execute(sql`update api_keys set enabled = false where id = ${key.id}`);
    expect(await until(() => keyCacheOf(t.ctx).get(key.apiKey) === undefined, 2_000)).toBe(true);
    await expect(verify(t.ctx, signed(key.apiKey, key.secret))).rejects.toMatchObject({ code: "key_disabled" });
  });

  // Two instances need PostgreSQL (PGlite is one process): registered for it only.
  if (kind === "postgres")
    it("refuses a key disabled on another instance as soon as that change commits", async () => {
    // Instance B: its own connections and its own cache, on the same database.
    other = await openDatabase({ url: t.ctx.config.databaseUrl, dataDir: "memory://" });
    const b: AppContext = { ...t.ctx, db: other.db, relaxedDb: other.relaxedDb, idempotencyDb: other.idempotencyDb };
    const feed = startKeyInvalidation(b, () => undefined);
    if (!feed) throw new Error("no change feed on PostgreSQL");
    feeds.push(feed);
    expect(await until(() => feed.connected, 5_000)).toBe(true);

    const key = await createApiKey(t.ctx, tenantId, { name: "ea-b", scope: "SLAVE", accountId: slaveId, allowUnbound: false });
    await verify(b, signed(key.apiKey, key.secret));
    expect(keyCacheOf(b).get(key.apiKey)).toBeDefined();
    await setApiKeyEnabled(t.ctx, tenantId, key.id, false); // on instance A
    // The TTL is 5 minutes: only the notice can make B drop it this fast.
    expect(await until(() => keyCacheOf(b).get(key.apiKey) === undefined, 2_000)).toBe(true);
    await expect(verify(b, signed(key.apiKey, key.secret))).rejects.toMatchObject({ code: "key_disabled" });
  });
});
