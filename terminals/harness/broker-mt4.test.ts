/** The simulated broker on the MT4 side, driven through the MT4 probe EA (broker-probe.ts). */
import { describe, expect, it } from "vitest";
import { book, brokerDir, fields, start, SYM, useBrokerProbe } from "./broker-probe.ts";

const ea4 = useBrokerProbe("BrokerProbe.mq4");

describe("simulated broker, MT4", () => {
  it("partial OrderClose leaves the rest under a new ticket with comment from #<old>", async () => {
    const t = start(ea4.binary(), brokerDir({}));
    const sent = fields(await t.probe(`send ${SYM} BUY 0.10`), "SEND");
    expect(sent.err).toBe("0");
    const ticket = sent.ticket ?? "";
    const opened = fields(await t.probe("trades"), "TRADE");
    expect(fields(await t.probe(`close ${ticket} 0.04`), "CLOSE")).toMatchObject({ ok: "1", err: "0" });

    const trades = await t.probe("trades");
    expect(trades).toContain("TRADES 1");
    const rest = fields(trades, "TRADE");
    expect(rest.ticket).not.toBe(ticket);
    expect(rest).toMatchObject({ lots: "0.06", open: "1.08460", magic: "777", comment: `from #${ticket}`, opentime: opened.opentime });
    const hist = fields(await t.probe("history"), "HIST");
    expect(hist).toMatchObject({ ticket, lots: "0.04", close: "1.08450", profit: "-0.40", comment: `to #${rest.ticket}` });

    // by hand: the answer names the remainder
    const byHand = await t.send(`close ${rest.ticket} 0.02`);
    expect(byHand.answer).toMatchObject({ ok: true });
    const remaining = String(byHand.answer.remainingTicket);
    const b = await book(t);
    expect(b.positions).toEqual([expect.objectContaining({ ticket: remaining, volume: "0.04", comment: `from #${rest.ticket}` })]);
    await t.quit();
  });

  it("returns -1 with MQL4 error codes: 138 requote, 131 volume, 4106 unknown symbol; SL close appends [sl]", async () => {
    const t = start(ea4.binary(), brokerDir({}));
    await t.send("requote 1");
    expect(fields(await t.probe(`send ${SYM} BUY 0.10`), "SEND")).toMatchObject({ ticket: "-1", err: "138" });
    expect(fields(await t.probe(`send ${SYM} BUY 0.015`), "SEND")).toMatchObject({ ticket: "-1", err: "131" });
    expect(fields(await t.probe("send NOPE BUY 0.10"), "SEND")).toMatchObject({ ticket: "-1", err: "4106" });
    expect(fields(await t.probe("market NOPE"), "MARKET")).toMatchObject({ err: "4106" });
    expect(fields(await t.probe(`market ${SYM}`), "MARKET")).toMatchObject({ bid: "1.08450", minlot: "0.01", allowed: "1", busy: "0" });
    const sent = fields(await t.probe(`send ${SYM} BUY 0.10`), "SEND");
    expect(sent.err).toBe("0");
    expect(fields(await t.probe(`modify ${sent.ticket} 1.08400 0`), "MODIFY")).toMatchObject({ ok: "1" });
    expect(fields(await t.probe(`modify ${sent.ticket} 1.08400 0`), "MODIFY")).toMatchObject({ ok: "0", err: "1" }); // ERR_NO_RESULT
    const hist = fields(await t.probe("history", "1.08390", "1.08400"), "HIST");
    expect(hist).toMatchObject({ ticket: sent.ticket, close: "1.08400", comment: "probe[sl]" });
    expect((await book(t)).positions).toEqual([]);
    await t.quit();
  });

  it("triggers a pending order under the same ticket; OrderModify and OrderDelete on pending orders", async () => {
    const t = start(ea4.binary(), brokerDir({}));
    const placed = await t.send(`pending ${SYM} SELL_STOP 0.10 1.08300`);
    const ticket = String(placed.answer.ticket);
    expect(await t.probe("trades")).toContain("TRADES 1");
    const trades = await t.probe("trades", "1.08300", "1.08310");
    expect(fields(trades, "TRADE")).toMatchObject({ ticket, type: "1", open: "1.08300" });

    const sent = fields(await t.probe(`send ${SYM} BUY_LIMIT 0.10 1.08000`), "SEND");
    expect(sent.err).toBe("0");
    expect(fields(await t.probe(`pmodify ${sent.ticket} 1.08100`), "PMODIFY")).toMatchObject({ ok: "1" });
    expect((await book(t)).orders[0]).toMatchObject({ ticket: sent.ticket, type: "BUY_LIMIT", price: "1.08100" });
    expect(fields(await t.probe(`delete ${ticket}`), "DELETE")).toMatchObject({ ok: "0", err: "4108" }); // a market order
    expect(fields(await t.probe(`delete ${sent.ticket}`), "DELETE")).toMatchObject({ ok: "1", err: "0" });
    expect(fields(await t.probe("history"), "HIST")).toMatchObject({ ticket: sent.ticket, type: "2" });
    expect((await book(t)).orders).toEqual([]);
    await t.quit();
  });
});
