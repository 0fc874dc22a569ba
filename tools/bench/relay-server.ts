/**
 * The baseline relay (issue 15): a bare `node:http` server, run in its own process, that does the
 * least a copier must — take the master's POST, answer every slave's parked long-poll with the
 * order, and take the slaves' reports (on their next poll, answered in its `reports`, as the
 * bridge does, or on their own request, 200) — speaking the bridge's paths and JSON shapes so the
 * benchmark drives it with the very client code it drives the server with (signatures are not
 * checked). With `RELAY_DATABASE_URL` it first makes the signal durable: one `INSERT` committed on
 * PostgreSQL with `synchronous_commit = on` (a pool of 10, so concurrent signals share WAL flushes),
 * then answers the polls and the master, in that order, in one turn of the event loop.
 *
 * Env: RELAY_SLAVES (slave count; keys are `slave-0` … `slave-<n-1>`), RELAY_DATABASE_URL (optional).
 * Prints `PORT <n>` once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";

interface RelayOrder {
  orderId: string;
  action: string;
  signalId: string;
  masterTicket: string;
  slaveTicket: null;
  symbol: string;
  side: string;
  orderType: string;
  volume: string;
  price: string;
  createdAtMs: number;
}

interface Parked {
  res: ServerResponse;
  timer: NodeJS.Timeout;
  /** The answers to the reports the poll carried (absent when it carried none). */
  reports?: RelayReportAnswer[];
}

interface RelayReportAnswer {
  orderId: string | null;
  ok: true;
  duplicate: false;
  executionId: string | null;
  status: unknown;
}

const slaveKeys = Array.from({ length: Number(process.env.RELAY_SLAVES ?? "0") }, (_, i) => `slave-${i}`);
const parked = new Map<string, Parked>();
const queued = new Map<string, RelayOrder[]>();
const pool = process.env.RELAY_DATABASE_URL ? new pg.Pool({ connectionString: process.env.RELAY_DATABASE_URL, max: 10, options: "-c synchronous_commit=on" }) : null;
let seq = 0;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function answerPoll(key: string, p: Parked, orders: RelayOrder[]): void {
  clearTimeout(p.timer);
  parked.delete(key);
  json(p.res, 200, { orders, config: {}, ...(p.reports ? { reports: p.reports } : {}) });
}

/** Hands `order` to the slave's parked poll, or keeps it for the slave's next poll. */
function offer(key: string, order: RelayOrder): void {
  const p = parked.get(key);
  if (p) return answerPoll(key, p, [order]);
  const q = queued.get(key) ?? [];
  q.push(order);
  queued.set(key, q);
}

async function onSignal(body: { id: string; type: string; order: { ticket: number | string; symbol: string; side: string; orderType?: string; volume: number; price?: number } }, res: ServerResponse): Promise<void> {
  const signalId = `sig-${++seq}`;
  if (pool) {
    await pool.query("insert into relay_signals (event_id, ticket, type, body) values ($1, $2, $3, $4)", [body.id, String(body.order.ticket), body.type, JSON.stringify(body)]);
  }
  const now = Date.now();
  for (const key of slaveKeys) {
    offer(key, {
      orderId: `${signalId}:${key}`,
      action: body.type,
      signalId,
      masterTicket: String(body.order.ticket),
      slaveTicket: null,
      symbol: body.order.symbol,
      side: body.order.side,
      orderType: body.order.orderType ?? "MARKET",
      volume: String(body.order.volume),
      price: String(body.order.price ?? "1"),
      createdAtMs: now,
    });
  }
  json(res, 201, { signalId, eventId: body.id, type: body.type, queued: slaveKeys.length, rejected: 0 });
}

function onPoll(req: IncomingMessage, res: ServerResponse, body: { waitMs?: number; reports?: { orderId?: string; status?: unknown }[] }): void {
  const key = String(req.headers["x-api-key"] ?? "");
  const previous = parked.get(key);
  if (previous) answerPoll(key, previous, []);
  const reports = body.reports?.map((r): RelayReportAnswer => ({ orderId: r.orderId ?? null, ok: true, duplicate: false, executionId: r.orderId ?? null, status: r.status }));
  const ready = queued.get(key);
  if (ready?.length) {
    queued.delete(key);
    return json(res, 200, { orders: ready, config: {}, ...(reports ? { reports } : {}) });
  }
  const p: Parked = { res, timer: setTimeout(() => answerPoll(key, p, []), Math.min(body.waitMs ?? 25_000, 30_000)), ...(reports ? { reports } : {}) };
  parked.set(key, p);
  res.once("close", () => {
    if (parked.get(key) === p) {
      clearTimeout(p.timer);
      parked.delete(key);
    }
  });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const url = req.url ?? "";
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { error: "bad json" });
    }
    if (url.startsWith("/v1/master/signal/")) {
      onSignal(body as unknown as Parameters<typeof onSignal>[0], res).catch((err: unknown) => json(res, 500, { error: String(err) }));
    } else if (url === "/v1/slave/orders/poll") {
      onPoll(req, res, body);
    } else if (url === "/v1/slave/execution/report") {
      json(res, 200, { status: "accepted" });
    } else {
      json(res, 200, {});
    }
  });
});

if (pool) {
  await pool.query("create table if not exists relay_signals (id bigserial primary key, event_id text not null, ticket text not null, type text not null, body jsonb not null, received_at timestamptz not null default now())");
}
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.info(`PORT ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close();
  void pool?.end().finally(() => process.exit(0));
  if (!pool) process.exit(0);
});
