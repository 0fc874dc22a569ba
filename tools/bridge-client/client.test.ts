import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BridgeClient } from "./client.ts";

/** A server answering 503 + Retry-After: 0 to the first `shed` requests, then 200. */
async function shedding(shed: number, retryAfter: string | null = "0") {
  const seen: { signature: string | undefined; body: string }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ signature: req.headers["x-signature"] as string | undefined, body });
      if (seen.length <= shed) {
        res.writeHead(503, { "content-type": "application/json", ...(retryAfter === null ? {} : { "retry-after": retryAfter }) });
        res.end(JSON.stringify({ code: "overloaded" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

const creds = { apiKey: "cb_test", secret: "s".repeat(32) };
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.map((c) => c()));
  cleanup = [];
});

describe("BridgeClient and 503 overloaded", () => {
  it("sends a shed request again after Retry-After, the same bytes signed anew, as the EAs do", async () => {
    const s = await shedding(2);
    const client = new BridgeClient(s.url, creds);
    cleanup.push(s.close, () => client.destroy());
    const res = await client.post("/v1/slave/heartbeat", { hello: 1 }, Math.floor(Date.now() / 1000));
    expect(res.status).toBe(200);
    expect(s.seen).toHaveLength(3);
    expect(new Set(s.seen.map((x) => x.body)).size).toBe(1);
    expect(s.seen.every((x) => typeof x.signature === "string")).toBe(true);
  });

  it("hands the 503 to the caller with retryOverloaded 0, after the retries run out, or without Retry-After", async () => {
    const raw = await shedding(5);
    const noRetry = new BridgeClient(raw.url, creds, { retryOverloaded: 0 });
    const twice = new BridgeClient(raw.url, creds, { retryOverloaded: 1 });
    cleanup.push(raw.close, () => noRetry.destroy(), () => twice.destroy());
    expect(await noRetry.post("/v1/x", {})).toMatchObject({ status: 503, retryAfterS: 0 });
    expect(raw.seen).toHaveLength(1);
    expect((await twice.post("/v1/x", {})).status).toBe(503);
    expect(raw.seen).toHaveLength(3);

    const bare = await shedding(1, null);
    const client = new BridgeClient(bare.url, creds);
    cleanup.push(bare.close, () => client.destroy());
    expect((await client.post("/v1/x", {})).status).toBe(503);
    expect(bare.seen).toHaveLength(1);
  });
});
