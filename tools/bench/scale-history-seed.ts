/**
 * Seeds a year of copy history for one tenant straight into the database (generate_series, no
 * server): `signals` master tickets spread evenly over the last 365 days, each with its OPEN event
 * and (all but the newest `active`) its CLOSE event; per slave an OPEN execution (filled) and a
 * CLOSE execution (closed, with profit), both reported, and a position link (closed, or open for
 * the active ones). Row ids of signals and events are md5-derived from the tenant and the ticket
 * number, so the executions can point at them without reading anything back. Written in chunks of
 * CHUNK tickets (bounded statement size on PGlite), then `analyze`.
 */
import { performance as perf } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { encodeListCursor } from "#contract";
import { openDatabase } from "../../server/db/client.ts";

const CHUNK = 20_000;

export interface SeedResult {
  signals: number;
  events: number;
  executions: number;
  positionLinks: number;
  seedSeconds: number;
  /** `before` cursors pointing half-way through the history (the middle ticket's created_at). */
  midSignalCursor: string;
  midExecutionCursor: string;
}

export interface SeedInput {
  tenantId: string;
  masterId: string;
  slaveIds: string[];
  signals: number;
  /** The newest tickets left open. */
  active: number;
}

/** @throws Error when the database cannot be opened (e.g. PGlite still held by a server) */
export async function seedHistory(options: { url?: string; dataDir: string }, s: SeedInput): Promise<SeedResult> {
  const database = await openDatabase(options);
  const db = database.db;
  const t0 = perf.now();
  const total = s.signals;
  const stepS = (365 * 86_400) / total; // seconds between two tickets
  const tenant = sql`${s.tenantId}::uuid`;
  const slaves = sql.raw(`array[${s.slaveIds.map((id) => `'${id}'::uuid`).join(",")}]`);
  const sid = (i: string) => sql.raw(`md5('${s.tenantId}:s:' || ${i})::uuid`);
  const eid = (kind: "o" | "c", i: string) => sql.raw(`md5('${s.tenantId}:e${kind}:' || ${i})::uuid`);
  // Opened at `ts`, closed half a step later; the newest `active` tickets are still open.
  const timeOf = sql`now() - make_interval(secs => (${total} - i) * ${stepS}::float8)`;
  const closeOf = sql`now() - make_interval(secs => (${total} - i) * ${stepS}::float8 - ${stepS / 2}::float8)`;
  const isActive = sql`i > ${total - s.active}`;
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    const range = sql`generate_series(${from}::int, ${to}::int) as g(i)`;
    await db.execute(sql`
      insert into signals (id, tenant_id, master_account_id, master_ticket, symbol, side, order_type, volume, open_volume, price, sl, tp,
        status, final_status, master_closed_at, opened_at, created_at, closed_at)
      select ${sid("i")}, ${tenant}, ${s.masterId}::uuid, (100000 + i)::text, 'EURUSD', case when i % 2 = 0 then 'BUY' else 'SELL' end, 'MARKET',
        1.00, case when ${isActive} then 1.00 else 0 end, 1.08456, 1.08, 1.09,
        case when ${isActive} then 'active' else 'closed' end, case when ${isActive} then null else 'closed' end,
        case when ${isActive} then null else ${closeOf} end, ${timeOf}, ${timeOf}, case when ${isActive} then null else ${closeOf} end
      from ${range}`);
    await db.execute(sql`
      insert into signal_events (id, tenant_id, signal_id, type, external_id, idempotency_key, payload, master_ts, received_at)
      select ${eid("o", "i")}, ${tenant}, ${sid("i")}, 'OPEN', 'evt-o-' || i, 'idem-o-' || i,
        jsonb_build_object('type', 'OPEN', 'order', jsonb_build_object('ticket', 100000 + i, 'symbol', 'EURUSD', 'volume', 1, 'price', 1.08456)), ${timeOf}, ${timeOf}
      from ${range}
      union all
      select ${eid("c", "i")}, ${tenant}, ${sid("i")}, 'CLOSE', 'evt-c-' || i, 'idem-c-' || i,
        jsonb_build_object('type', 'CLOSE', 'order', jsonb_build_object('ticket', 100000 + i, 'symbol', 'EURUSD', 'volume', 1, 'price', 1.08556)), ${closeOf}, ${closeOf}
      from ${range} where not (${isActive})`);
    await db.execute(sql`
      insert into executions (tenant_id, signal_id, event_id, slave_account_id, action, status, master_ticket, symbol, side, order_type, volume,
        requested_volume, price, slave_ticket, fill_price, fill_time, point, latency_ms, slippage_pts, profit, delivery_count, delivered_at, reported_at, created_at)
      select ${tenant}, ${sid("i")}, ${eid("o", "i")}, a.id, 'OPEN', 'filled', (100000 + i)::text, 'EURUSD', case when i % 2 = 0 then 'BUY' else 'SELL' end,
        'MARKET', 1.00, 1.00, 1.08456, (a.n * 1000000 + i)::text, 1.08457, ${timeOf}, 0.00001, 40, 1, null, 1, ${timeOf}, ${timeOf}, ${timeOf}
      from ${range}, unnest(${slaves}) with ordinality as a(id, n)
      union all
      select ${tenant}, ${sid("i")}, ${eid("c", "i")}, a.id, 'CLOSE', 'closed', (100000 + i)::text, 'EURUSD', case when i % 2 = 0 then 'SELL' else 'BUY' end,
        'MARKET', 1.00, 1.00, 1.08556, (a.n * 1000000 + i)::text, 1.08555, ${closeOf}, 0.00001, 40, 1, round((sin(i + a.n) * 40)::numeric, 2), 1, ${closeOf}, ${closeOf}, ${closeOf}
      from ${range}, unnest(${slaves}) with ordinality as a(id, n) where not (${isActive})`);
    await db.execute(sql`
      insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status, created_at, closed_at)
      select ${tenant}, ${sid("i")}, a.id, (a.n * 1000000 + i)::text, case when ${isActive} then 1.00 else 0 end,
        case when ${isActive} then 'open' else 'closed' end, ${timeOf}, case when ${isActive} then null else ${closeOf} end
      from ${range}, unnest(${slaves}) with ordinality as a(id, n)`);
  }
  await db.execute(sql`analyze`);
  const result: unknown = await db.execute(sql`
    select (select count(*) from signals where tenant_id = ${tenant})::int as signals,
      (select count(*) from signal_events where tenant_id = ${tenant})::int as events,
      (select count(*) from executions where tenant_id = ${tenant})::int as executions,
      (select count(*) from position_links where tenant_id = ${tenant})::int as links,
      (select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from signals where id = ${sid(String(Math.ceil(total / 2)))}) as mid`);
  const counts = result as { rows: { signals: number; events: number; executions: number; links: number; mid: string }[] };
  const seedSeconds = (perf.now() - t0) / 1000;
  await database.close();
  const row = counts.rows[0]!;
  // Ties are broken by id: the greatest id puts every row of that instant on the page.
  const mid = encodeListCursor({ createdAt: row.mid, id: "ffffffff-ffff-4fff-bfff-ffffffffffff" });
  return {
    signals: Number(row.signals),
    events: Number(row.events),
    executions: Number(row.executions),
    positionLinks: Number(row.links),
    seedSeconds,
    midSignalCursor: mid,
    midExecutionCursor: mid,
  };
}
