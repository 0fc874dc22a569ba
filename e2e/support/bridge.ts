/**
 * Bridge fixtures for integration tests: a tenant with a master, slaves and API keys, signed
 * requests whose reference signatures come from the `openssl` command line (not from the code
 * under test), and the BridgeClient for flows.
 */
import { execFileSync } from "node:child_process";
import { BridgeClient, type BridgeClientOptions } from "../../tools/bridge-client/client.ts";
import type { SignalEventInput } from "#contract";
import type { Api } from "./http.ts";

/** Reference HMAC-SHA256 (lowercase hex) computed by `openssl dgst -sha256 -hmac`. */
export function opensslSignature(secret: string, message: string): string {
  const out = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret], { input: message }).toString();
  return out.trim().split("= ").pop()!.trim();
}

export interface Key {
  id: string;
  apiKey: string;
  secret: string;
}

/** A key bound to `accountId`; without one a SLAVE key is created unbound on purpose (`allowUnbound`), a MASTER key binds to the master. */
export async function createKey(api: Api, scope: "MASTER" | "SLAVE" | "DASHBOARD", accountId: string | null = null, name = `${scope} key`): Promise<Key> {
  const unbound = scope === "SLAVE" && !accountId ? { allowUnbound: true } : {};
  const res = await api.post("/api/bridge/api-keys", { name, scope, accountId: accountId ?? "", ...unbound });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, apiKey: res.body.apiKey, secret: res.body.secret };
}

export const nowS = () => Math.floor(Date.now() / 1000);

/** Sends exactly `body` (a string) with the given headers; answers status + parsed JSON. */
export async function rawPost(baseUrl: string, path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(baseUrl + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text)) : null };
}

/** POST signed with an openssl-computed signature. */
export function signedPost(baseUrl: string, key: Key, path: string, body: string, ts = nowS()) {
  const sig = opensslSignature(key.secret, `POST${path}${ts}${body}`);
  return rawPost(baseUrl, path, body, { "x-api-key": key.apiKey, "x-ts": String(ts), "x-signature": sig });
}

/** Waits until the current second has at least `marginMs` left, so a whole-second ts stays valid. */
export async function atSecondStart(marginMs = 700): Promise<void> {
  const left = 1000 - (Date.now() % 1000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 5));
}

let seq = 0;
/** A sample master event (spec §3 sample signal event) with a fresh idempotency key. */
export function masterEvent(type: SignalEventInput["type"], order: Partial<SignalEventInput["order"]> & { ticket: number | string }, extra: Partial<SignalEventInput> = {}): SignalEventInput {
  seq += 1;
  return {
    id: `evt-${seq}`,
    type,
    ts: nowS(),
    master: { login: "50001234", alias: "Main", magic: 777, server: "ICMarkets-Demo" },
    order: { symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: 1, price: 1.08456, sl: 1.08, tp: 1.09, comment: "test", ...order },
    risk: { atr: 0.0011, slDistancePts: 456 },
    idempotencyKey: `idem-${type.toLowerCase()}-${order.ticket}-${seq}-${Date.now()}`,
    ...extra,
  };
}

export interface BridgeTenant {
  masterId: string;
  slaveIds: string[];
  master: BridgeClient;
  slaves: BridgeClient[];
  keys: { master: Key; slaves: Key[] };
  close(): Promise<void>;
}

/**
 * A master, `n` slaves (account numbers 7001…), a MASTER key and one bound SLAVE key per slave.
 * `clients`: options of the bridge clients (benchmarks pass `retryOverloaded: 0` to count sheds).
 */
export async function setUpBridge(api: Api, baseUrl: string, n: number, clients: BridgeClientOptions = {}): Promise<BridgeTenant> {
  const m = await api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER" });
  if (m.status !== 201) throw new Error(`master: ${m.status}`);
  const slaveIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await api.post("/api/accounts", { accountNumber: String(7001 + i), alias: `S${i + 1}`, broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    if (s.status !== 201) throw new Error(`slave: ${s.status}`);
    slaveIds.push(s.body.id);
  }
  const masterKey = await createKey(api, "MASTER");
  const slaveKeys = await Promise.all(slaveIds.map((id) => createKey(api, "SLAVE", id)));
  const master = new BridgeClient(baseUrl, masterKey, clients);
  const slaves = slaveKeys.map((k) => new BridgeClient(baseUrl, k, clients));
  return {
    masterId: m.body.id,
    slaveIds,
    master,
    slaves,
    keys: { master: masterKey, slaves: slaveKeys },
    close: async () => {
      await master.close();
      await Promise.all(slaves.map((s) => s.close()));
    },
  };
}
