/** The simulated broker on the MT5 side, driven through the MT5 probe EA (broker-probe.ts). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { all, book, brokerDir, fields, start, SYM, txTypes, useBrokerProbe } from "./broker-probe.ts";

const ea5 = useBrokerProbe("BrokerProbe.mq5");

describe("simulated broker, MT5", () => {
  it("queues ORDER_ADD, ORDER_DELETE, HISTORY_ADD, DEAL_ADD, REQUEST for a market open, partial close and close", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    const open = await t.probe(`deal ${SYM} BUY 0.10 FOK`);
    const res = fields(open, "RES");
    expect(res).toMatchObject({ sent: "1", retcode: "10009", volume: "0.10", price: "1.08460" });
    const ticket = res.order ?? "";
    expect(txTypes(open)).toEqual([0, 2, 3, 6, 10]);
    const txs = all(open, "TX");
    expect(txs.slice(0, 3).map((x) => x.order)).toEqual([ticket, ticket, ticket]);
    expect(txs[3]).toMatchObject({ deal: res.deal, position: ticket });
    expect(txs[4]).toMatchObject({ retcode: "10009", raction: "1" });

    const partial = await t.probe(`deal ${SYM} SELL 0.04 FOK ${ticket}`);
    expect(fields(partial, "RES")).toMatchObject({ retcode: "10009", volume: "0.04" });
    expect(txTypes(partial)).toEqual([0, 2, 3, 6, 10]);
    expect(all(partial, "TX")[3]).toMatchObject({ position: ticket, volume: "0.04" });
    let b = await book(t);
    expect(b.positions).toHaveLength(1);
    expect(b.positions[0]).toMatchObject({ ticket, side: "BUY", volume: "0.06", openPrice: "1.08460", magic: 777, comment: "probe" });

    const close = await t.probe(`deal ${SYM} SELL 0.06 FOK ${ticket}`);
    expect(fields(close, "RES").retcode).toBe("10009");
    expect(txTypes(close)).toEqual([0, 2, 3, 6, 10]);
    b = await book(t);
    expect(b.positions).toEqual([]);
    // opened at ask 1.08460, closed at bid 1.08450: −10 points × 1 USD × lots
    expect(b.balance).toBe("9999.00");

    const deals = all(await t.probe(`hist ${ticket}`), "DEAL");
    expect(deals.map((d) => [d.entry, d.volume, d.profit])).toEqual([
      ["0", "0.10", "0.00"],
      ["1", "0.04", "-0.40"],
      ["1", "0.06", "-0.60"],
    ]);
    expect(deals.every((d) => d.reason === "3")).toBe(true); // DEAL_REASON_EXPERT
    expect(await t.quit()).toBe(0);
  });

  it("answers 10030 for a filling mode the symbol does not allow, then fills with the allowed one", async () => {
    const t = start(ea5.binary(), brokerDir({ fillingMode: 2 })); // IOC only, market execution
    const fok = await t.probe(`deal ${SYM} BUY 0.10 FOK`);
    expect(fields(fok, "RES")).toMatchObject({ sent: "0", retcode: "10030", order: "0", err: "4756" });
    expect(txTypes(fok)).toEqual([10]);
    const ret = await t.probe(`deal ${SYM} BUY 0.10 RETURN`);
    expect(fields(ret, "RES").retcode).toBe("10030");
    const ioc = await t.probe(`deal ${SYM} BUY 0.10 IOC`);
    expect(fields(ioc, "RES")).toMatchObject({ sent: "1", retcode: "10009" });
    expect((await book(t)).positions).toHaveLength(1);

    // reject-fill: the next market request answers 10030 whatever its mode
    expect((await t.send("reject-fill")).answer).toMatchObject({ ok: true });
    expect(fields(await t.probe(`deal ${SYM} BUY 0.10 IOC`), "RES").retcode).toBe("10030");
    expect(fields(await t.probe(`deal ${SYM} BUY 0.10 IOC`), "RES").retcode).toBe("10009");
    await t.quit();
  });

  it("requotes the next N requests of the EA", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    expect((await t.send("requote 2")).answer).toMatchObject({ ok: true, requotes: 2 });
    const first = fields(await t.probe(`deal ${SYM} BUY 0.10 FOK`), "RES");
    expect(first).toMatchObject({ sent: "0", retcode: "10004" });
    expect(fields(await t.probe(`deal ${SYM} BUY 0.10 FOK`), "RES").retcode).toBe("10004");
    expect((await book(t)).positions).toEqual([]);
    expect(fields(await t.probe(`deal ${SYM} BUY 0.10 FOK`), "RES").retcode).toBe("10009");
    // by hand the injection does not apply
    await t.send("requote 1");
    expect((await t.send(`open ${SYM} SELL 0.10`)).answer.ok).toBe(true);
    await t.quit();
  });

  it("checks volume, symbol and stops", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    expect(fields(await t.probe(`deal ${SYM} BUY 0.015 FOK`), "RES").retcode).toBe("10014");
    expect(fields(await t.probe(`deal ${SYM} BUY 0.00 FOK`), "RES").retcode).toBe("10014");
    expect(fields(await t.probe("deal NOPE BUY 0.10 FOK"), "RES").retcode).toBe("10013");
    expect(fields(await t.probe("symbol NOPE"), "SYMBOL")).toMatchObject({ err: "4301", bid: "0.00000" });
    expect(fields(await t.probe(`symbol ${SYM}`), "SYMBOL")).toMatchObject({ err: "0", filling: "3", digits: "5" });
    const badStops = await t.send(`open ${SYM} BUY 0.10 1.09000 0`);
    expect(badStops.answer).toMatchObject({ ok: false, code: 10016, mt4Error: 130 });
    const unknown = await t.send("frobnicate 1");
    expect(unknown.answer).toMatchObject({ ok: false });
    expect((await t.send("close 12345")).answer).toMatchObject({ ok: false, code: 10036 });
    await t.quit();
  });

  it("triggers a pending order on price (position ticket = order ticket) and closes on SL with reason SL", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    const placed = await t.send(`pending ${SYM} BUY_LIMIT 0.10 1.08300`);
    expect(placed.answer.ok).toBe(true);
    const ticket = String(placed.answer.ticket);
    const idle = await t.probe("positions", "1.08350", "1.08360");
    expect(all(idle, "TX")[0]).toMatchObject({ type: "0", order: ticket, state: "1", otype: "2" }); // ORDER_ADD, PLACED, BUY_LIMIT
    expect(idle).toContain("POSITIONS 0");

    const trig = await t.probe("positions", "1.08290", "1.08300");
    expect(txTypes(trig)).toEqual([2, 3, 6]); // no REQUEST: the broker did it
    expect(all(trig, "TX")[2]).toMatchObject({ order: ticket, position: ticket });
    expect(fields(trig, "POS")).toMatchObject({ ticket, id: ticket, type: "0", open: "1.08300", volume: "0.10" });
    let b = await book(t);
    expect(b.orders).toEqual([]);

    const sltp = await t.probe(`sltp ${ticket} 1.08200 0`, "1.08290", "1.08300");
    expect(fields(sltp, "RES").retcode).toBe("10009");
    expect(txTypes(sltp)).toEqual([9, 10]); // POSITION, REQUEST
    b = await book(t);
    expect(b.positions[0]?.sl).toBe("1.08200");

    const hit = await t.probe(`hist ${ticket}`, "1.08190", "1.08200");
    expect(txTypes(hit)).toEqual([0, 2, 3, 6]);
    const deals = all(hit, "DEAL");
    expect(deals).toHaveLength(2);
    expect(deals[0]).toMatchObject({ entry: "0", reason: "0", price: "1.08300" }); // placed by hand: CLIENT
    expect(deals[1]).toMatchObject({ entry: "1", reason: "4", price: "1.08200", profit: "-10.00" }); // DEAL_REASON_SL
    expect((await book(t)).positions).toEqual([]);
    await t.quit();
  });

  it("places, modifies and removes a pending order from the EA with ORDER_ADD / ORDER_UPDATE / ORDER_DELETE + HISTORY_ADD", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    const placed = await t.probe(`pending ${SYM} BUY_STOP 0.20 1.08600`);
    const res = fields(placed, "RES");
    expect(res).toMatchObject({ sent: "1", retcode: "10008", volume: "0.20" });
    const ticket = res.order ?? "";
    expect(txTypes(placed)).toEqual([0, 10]);
    expect(all(placed, "TX")[0]).toMatchObject({ order: ticket, state: "1", otype: "4" });
    expect(fields(await t.probe("orders"), "ORD")).toMatchObject({ ticket, type: "4", state: "1", price: "1.08600", volume: "0.20", symbol: SYM });

    const moved = await t.probe(`pmodify ${ticket} 1.08700`);
    expect(fields(moved, "RES").retcode).toBe("10009");
    expect(txTypes(moved)).toEqual([1, 10]);
    expect(fields(await t.probe(`pmodify ${ticket} 1.08700`), "RES").retcode).toBe("10025"); // no changes
    expect(fields(await t.probe(`pmodify ${ticket} 1.08400`), "RES").retcode).toBe("10015"); // buy stop below ask
    expect(fields(await t.probe(`pending ${SYM} BUY_LIMIT 0.10 1.08500`), "RES").retcode).toBe("10015"); // buy limit above ask

    const removed = await t.probe(`remove ${ticket}`);
    expect(fields(removed, "RES").retcode).toBe("10009");
    expect(txTypes(removed)).toEqual([2, 3, 10]);
    expect(all(removed, "TX")[1]).toMatchObject({ order: ticket, state: "2" }); // ORDER_STATE_CANCELED
    expect((await t.probe("orders"))).toContain("ORDERS 0");
    const hist = await t.probe("horders");
    expect(fields(hist, "HORD")).toMatchObject({ ticket, type: "4", state: "2", reason: "3" });
    expect(fields(hist, "NOTSELECTED")).toMatchObject({ value: "0", err: "4755" });
    expect(fields(await t.probe(`remove ${ticket}`), "RES").retcode).toBe("10035"); // gone

    expect(fields(await t.probe(`check ${SYM} 0.10`), "CHECK")).toMatchObject({ ok: "1", retcode: "0", margin: "108.46" }); // 0.1 × 1.0846 / 0.00001 × 1 / 100
    expect(fields(await t.probe(`check ${SYM} 0.013`), "CHECK")).toMatchObject({ ok: "0", retcode: "10014" });
    expect((await book(t)).positions).toEqual([]); // OrderCheck never trades
    await t.quit();
  });

  it("stops out at the stop-out margin level with DEAL_REASON_SO", async () => {
    const t = start(ea5.binary(), brokerDir({}));
    const ticket = String((await t.send(`open ${SYM} BUY 5.00`)).answer.ticket);
    // margin 5 × 1.0846 / 0.00001 × 1 / 100 = 5423; at bid 1.07000 equity = 10000 − 7300 = 2700 (49.8 %)
    const out = await t.probe(`hist ${ticket}`, "1.07000", "1.07010");
    expect(txTypes(out)).toEqual([0, 2, 3, 6, 0, 2, 3, 6]); // the open by hand, then the stop-out
    const deals = all(out, "DEAL");
    expect(deals[1]).toMatchObject({ entry: "1", reason: "6", price: "1.07000", profit: "-7300.00" });
    const b = await book(t);
    expect(b.positions).toEqual([]);
    expect(b.balance).toBe("2700.00");
    await t.quit();
  });

  it("keeps one position per symbol on a netting account: reduce, then reverse", async () => {
    const t = start(ea5.binary(), brokerDir({ marginMode: "netting" }));
    const opened = await t.send(`open ${SYM} BUY 0.10`);
    const ticket = String(opened.answer.ticket);
    await t.send(`open ${SYM} SELL 0.04`);
    let b = await book(t);
    expect(b.positions).toHaveLength(1);
    expect(b.positions[0]).toMatchObject({ ticket, side: "BUY", volume: "0.06" });
    await t.send(`open ${SYM} SELL 0.10`);
    b = await book(t);
    expect(b.positions).toHaveLength(1);
    expect(b.positions[0]).toMatchObject({ ticket, side: "SELL", volume: "0.04", openPrice: "1.08450" });
    const out = await t.probe(`hist ${ticket}`);
    expect(all(out, "DEAL").map((d) => d.entry)).toEqual(["0", "1", "2"]); // IN, OUT, INOUT
    expect(fields(await t.probe("account"), "ACCOUNT").mode).toBe("0"); // ACCOUNT_MARGIN_MODE_RETAIL_NETTING
    // an EA deal in the same direction adds to it
    expect(fields(await t.probe(`deal ${SYM} SELL 0.02 FOK`), "RES").retcode).toBe("10009");
    b = await book(t);
    expect(b.positions).toHaveLength(1);
    expect(b.positions[0]?.volume).toBe("0.06");
    await t.quit();
  });

  it("keeps the broker's side across kill -9 and restart, tickets above 2^53 with bigTickets", async () => {
    const dir = brokerDir({ bigTickets: true });
    let t = start(ea5.binary(), dir);
    const res = fields(await t.probe(`deal ${SYM} BUY 0.10 FOK`), "RES");
    const pos = res.order ?? "";
    expect(BigInt(pos) > 2n ** 53n).toBe(true);
    await t.send(`close ${pos} 0.03`);
    const pending = String((await t.send(`pending ${SYM} SELL_STOP 0.20 1.08000`)).answer.ticket);
    const before = await book(t);
    await t.kill();

    t = start(ea5.binary(), dir);
    const after = await book(t);
    expect(after).toEqual(before);
    expect(after.positions[0]).toMatchObject({ ticket: pos, volume: "0.07" });
    expect(after.orders[0]).toMatchObject({ ticket: pending, type: "SELL_STOP", volume: "0.20", price: "1.08000" });
    const deals = all(await t.probe(`hist ${pos}`), "DEAL");
    expect(deals.map((d) => d.volume)).toEqual(["0.10", "0.03"]);
    const next = String((await t.send(`open ${SYM} BUY 0.01`)).answer.ticket);
    expect(BigInt(next) > BigInt(pending)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, "book.json"), "utf8"))).toMatchObject({ platform: "MT5" });
    await t.quit();
  });
});
