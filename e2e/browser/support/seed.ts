/**
 * A tenant with something on every screen, made only through the public API and the signed
 * bridge protocol (tools/bridge-client): a master whose EA has reported, three slaves (one paused,
 * one without alias), API keys, symbol maps, a risk limit, open and closed signals with filled and
 * rejected executions, and the audit entries all of that leaves.
 */
import { randomBytes } from "node:crypto";
import type { SignalEventInput } from "#contract";
import { BridgeClient } from "../../../tools/bridge-client/client.ts";
import type { Api } from "../../support/http.ts";
import { signUp, type SignedIn } from "../../support/tenant.ts";

export interface SeededTenant extends SignedIn {
  masterId: string;
  /** Alpha (active), Beta (paused), and an alias-less slave (active), in creation order. */
  slaveIds: [string, string, string];
}

async function created(api: Api, path: string, body: unknown): Promise<any> {
  const res = await api.post(path, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const nowS = () => Math.floor(Date.now() / 1000);

function event(type: SignalEventInput["type"], ticket: number, order: Partial<SignalEventInput["order"]>): SignalEventInput {
  return {
    id: `seed-${type.toLowerCase()}-${ticket}`,
    type,
    ts: nowS(),
    master: { login: "50001234", alias: "Main MT5", magic: 777, server: "ICMarketsSC-Demo" },
    order: { ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: 1, price: 1.08456, sl: 0, tp: 0, comment: "seed", ...order },
    risk: { atr: 0.0011, slDistancePts: 250 },
    idempotencyKey: `seed-${type}-${ticket}-${randomBytes(4).toString("hex")}`,
  };
}

/** Registers a tenant and fills it with demo data; `baseUrl` is the running server. */
export async function seedDemoTenant(baseUrl: string): Promise<SeededTenant> {
  const t = await signUp(baseUrl, { firstName: "Grace", lastName: "Hopper", tenantName: "Hopper Capital" });
  const { api } = t;

  const master = await created(api, "/api/accounts", { accountNumber: "50001234", alias: "Main MT5", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" });
  const alpha = await created(api, "/api/accounts", { accountNumber: "7001", alias: "Alpha", broker: "Pepperstone", platform: "MT4", role: "SLAVE", status: "active" });
  const beta = await created(api, "/api/accounts", { accountNumber: "7002", alias: "Beta", broker: "XM", platform: "MT4", role: "SLAVE", status: "active" });
  const third = await created(api, "/api/accounts", { accountNumber: "7003", alias: "", broker: "FTMO", platform: "MT5", role: "SLAVE", status: "active" });

  await created(api, "/api/symbol-maps", { masterSymbol: "XAUUSD", slaveSymbol: "GOLD", slaveAccountId: alpha.id, lotMultiplier: 0.5 });
  await created(api, "/api/symbol-maps", { masterSymbol: "US30", slaveSymbol: "DJ30", slaveAccountId: beta.id, lotMultiplier: 1, enabled: false });
  await created(api, "/api/risk-limits", {
    accountId: alpha.id,
    scope: "account",
    targetId: alpha.id,
    maxDrawdownPct: 3,
    maxLotSize: 10,
    maxPositions: 20,
    maxSpreadPts: 30,
    maxDeviationPts: 20,
    enabled: true,
  });

  // Beta is paused from the dashboard (Disable), so it gets no copies.
  const paused = await api.put(`/api/accounts/${beta.id}`, { status: "paused" });
  if (paused.status !== 200) throw new Error(`seed pause: ${paused.status}`);

  const key = async (scope: "MASTER" | "SLAVE" | "DASHBOARD", accountId: string, name: string) =>
    (await created(api, "/api/bridge/api-keys", { name, scope, accountId })) as { apiKey: string; secret: string };
  const masterKey = await key("MASTER", master.id, "Master EA 1");
  const slaveClients = await Promise.all(
    [alpha, third].map(async (a: { id: string; alias: string | null }) => new BridgeClient(baseUrl, await key("SLAVE", a.id, `Slave EA ${a.alias ?? "3"}`))),
  );
  await key("DASHBOARD", "", "Grafana reader");
  const masterEa = new BridgeClient(baseUrl, masterKey);
  try {
    await masterEa.masterHeartbeat({ login: "50001234", server: "ICMarketsSC-Demo", balance: "25000.00", equity: "25130.55", currency: "USD" });
    await slaveClients[0]!.slaveHeartbeat({ login: "7001", server: "Pepperstone-Demo", balance: "10000.00", equity: "10052.10", currency: "USD" });
    await slaveClients[1]!.slaveHeartbeat({ login: "7003", server: "FTMO-Demo", balance: "5000.00", equity: "4990.00", currency: "USD" });

    // Two positions that stay open and one that opens and closes.
    for (const e of [
      event("OPEN", 1001, { symbol: "EURUSD", side: "BUY", volume: 1, price: 1.08456 }),
      event("OPEN", 1002, { symbol: "XAUUSD", side: "SELL", volume: 0.5, price: 2365.2 }),
      event("OPEN", 1003, { symbol: "GBPUSD", side: "BUY", volume: 0.3, price: 1.27114 }),
    ]) {
      const res = await masterEa.signal(e);
      if (res.status !== 201) throw new Error(`seed signal: ${res.status} ${JSON.stringify(res.body)}`);
    }
    // Alpha fills everything; the third slave rejects.
    let ticket = 5000;
    for (const [i, client] of slaveClients.entries()) {
      const { orders } = await client.poll({ waitMs: 0 });
      for (const order of orders) {
        ticket += 1;
        if (i === 0) {
          const price = Number(order.price ?? 1) + 0.00002;
          await client.report({ orderId: order.orderId, status: "filled", slaveTicket: ticket, fillPrice: price.toFixed(5), volume: order.volume ?? "0.01", fillTime: Date.now() / 1000, point: "0.00001" });
        } else {
          await client.report({ orderId: order.orderId, status: "rejected", errorCode: 134, errorMessage: "Not enough money" });
        }
      }
    }
    await masterEa.signal(event("CLOSE", 1003, { symbol: "GBPUSD", side: "BUY", volume: 0, price: 1.27301 }));
    const { orders } = await slaveClients[0]!.poll({ waitMs: 0 });
    for (const order of orders) {
      await slaveClients[0]!.report({ orderId: order.orderId, status: "closed", slaveTicket: order.slaveTicket, volume: order.volume ?? "0.3", fillPrice: "1.27299", fillTime: Date.now() / 1000, point: "0.00001", profit: "55.50" });
    }
  } finally {
    await masterEa.close();
    await Promise.all(slaveClients.map((c) => c.close()));
  }

  return { ...t, masterId: master.id, slaveIds: [alpha.id, beta.id, third.id] };
}
