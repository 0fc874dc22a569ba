import { describe, expect, it } from "vitest";
import { closeAllLinks, isSignalComplete, linkAfterReport, type CopyLink, type LinkChange, type LinkOrder, type LinkReport } from "./copy-state.ts";

const link = (over: Partial<CopyLink> = {}): CopyLink => ({ slaveTicket: "501", volume: "1.00", status: "open", ...over });
const order = (action: LinkOrder["action"], over: Partial<LinkOrder> = {}): LinkOrder => ({ action, volume: "1.00", slaveTicket: "501", ...over });

describe("linkAfterReport", () => {
  it.each<[string, CopyLink | null, LinkOrder, string | null, LinkReport, string | null, LinkChange]>([
    // name, link, order (after the report), opening volume, report, previous ticket → change
    ["OPEN filled creates the link with the reported volume", null, order("OPEN"), null, { status: "filled", volume: "0.98" }, null, { next: link({ volume: "0.98" }), write: "insert", checkSignal: true }],
    ["OPEN filled without a reported volume takes the ordered one", null, order("OPEN"), null, { status: "filled" }, null, { next: link(), write: "insert", checkSignal: true }],
    ["PENDING_OPEN placed creates the link", null, order("PENDING_OPEN", { slaveTicket: "900" }), null, { status: "placed" }, null, { next: link({ slaveTicket: "900" }), write: "insert", checkSignal: true }],
    ["PENDING_OPEN filled without placed creates the link", null, order("PENDING_OPEN", { slaveTicket: "901" }), null, { status: "filled" }, null, { next: link({ slaveTicket: "901" }), write: "insert", checkSignal: true }],
    [
      "a pending order's trigger (filled after placed) moves the ticket",
      link({ slaveTicket: "900" }),
      order("PENDING_OPEN", { slaveTicket: "901" }),
      null,
      { status: "filled" },
      "900",
      { next: link({ slaveTicket: "901" }), write: "update", checkSignal: true },
    ],
    [
      "a trigger does not move a link already moved elsewhere (partial close's remaining ticket)",
      link({ slaveTicket: "77" }),
      order("PENDING_OPEN", { slaveTicket: "901" }),
      null,
      { status: "filled" },
      "900",
      { next: link({ slaveTicket: "77" }), write: "none", checkSignal: true },
    ],
    [
      "a trigger does not reopen a closed link",
      link({ slaveTicket: "900", status: "closed", volume: "0" }),
      order("PENDING_OPEN", { slaveTicket: "901" }),
      null,
      { status: "filled" },
      "900",
      { next: link({ slaveTicket: "900", status: "closed", volume: "0" }), write: "none", checkSignal: true },
    ],
    [
      "a late open report never reopens, resizes or re-tickets a closed copy",
      link({ slaveTicket: null, volume: "0", status: "closed" }),
      order("OPEN", { slaveTicket: "76" }),
      null,
      { status: "filled", volume: "1.00" },
      null,
      { next: link({ slaveTicket: null, volume: "0", status: "closed" }), write: "none", checkSignal: true },
    ],
    [
      "a late open report leaves a link created by an earlier partial close as it is",
      link({ slaveTicket: "77", volume: "0.5" }),
      order("OPEN", { slaveTicket: "76" }),
      null,
      { status: "filled", volume: "1.00" },
      null,
      { next: link({ slaveTicket: "77", volume: "0.5" }), write: "none", checkSignal: true },
    ],
    ["a partial close reduces the link exactly", link({ volume: "0.30" }), order("CLOSE", { volume: "0.10" }), "0.30", { status: "closed" }, "501", { next: link({ volume: "0.2" }), write: "update", checkSignal: true }],
    ["the reported closed volume wins over the ordered", link({ volume: "0.30" }), order("CLOSE", { volume: "0.10" }), "0.30", { status: "closed", volume: "0.20" }, "501", { next: link({ volume: "0.1" }), write: "update", checkSignal: true }],
    [
      "a partial close moves the link to the remaining ticket",
      link({ volume: "1.00" }),
      order("CLOSE", { volume: "0.50" }),
      "1.00",
      { status: "closed", remainingTicket: "77" },
      "501",
      { next: link({ slaveTicket: "77", volume: "0.5" }), write: "update", checkSignal: true },
    ],
    ["a close of everything closes the link", link({ volume: "0.30" }), order("CLOSE", { volume: "0.30" }), "0.30", { status: "closed" }, "501", { next: link({ volume: "0", status: "closed" }), write: "update", checkSignal: true }],
    ["a close of more than held closes it at 0", link({ volume: "0.30" }), order("CLOSE", { volume: "0.50" }), "0.30", { status: "closed" }, "501", { next: link({ volume: "0", status: "closed" }), write: "update", checkSignal: true }],
    ["a cancel closes the link whatever its volume", link({ volume: "0.30" }), order("PENDING_CANCEL", { volume: "0.30" }), "0.30", { status: "cancelled" }, "501", { next: link({ volume: "0", status: "closed" }), write: "update", checkSignal: true }],
    [
      "a close before any open report records the copy from the opening order, reduced",
      null,
      order("CLOSE", { slaveTicket: null, volume: "0.50" }),
      "1.00",
      { status: "closed", volume: "0.50", remainingTicket: "77" },
      null,
      { next: { slaveTicket: "77", volume: "0.5", status: "open" }, write: "insert", checkSignal: true },
    ],
    [
      "a full close before any open report records the copy closed",
      null,
      order("CLOSE", { slaveTicket: "501", volume: "1.00" }),
      "1.00",
      { status: "closed" },
      null,
      { next: { slaveTicket: "501", volume: "0", status: "closed" }, write: "insert", checkSignal: true },
    ],
    [
      "a close before the open without an opening order uses the close's own volume",
      null,
      order("CLOSE", { slaveTicket: null, volume: "0.40" }),
      null,
      { status: "closed" },
      null,
      { next: { slaveTicket: null, volume: "0", status: "closed" }, write: "insert", checkSignal: true },
    ],
    ["a cancel before the placed report records the copy closed", null, order("PENDING_CANCEL", { slaveTicket: null }), "1.00", { status: "cancelled" }, null, { next: { slaveTicket: null, volume: "0", status: "closed" }, write: "insert", checkSignal: true }],
    ["a close reported twice (already closed) changes nothing", link({ volume: "0", status: "closed" }), order("CLOSE"), "1.00", { status: "closed" }, "501", { next: link({ volume: "0", status: "closed" }), write: "none", checkSignal: true }],
    ["a rejected open changes nothing", null, order("OPEN"), null, { status: "rejected" }, null, { next: null, write: "none", checkSignal: false }],
    ["a failed close changes nothing", link(), order("CLOSE"), "1.00", { status: "error" }, "501", { next: link(), write: "none", checkSignal: false }],
    ["a modify changes nothing", link(), order("MODIFY"), "1.00", { status: "modified" }, "501", { next: link(), write: "none", checkSignal: false }],
    ["CLOSE_ALL is closeAllLinks' work", link(), order("CLOSE_ALL", { volume: null, slaveTicket: null }), null, { status: "closed" }, null, { next: link(), write: "none", checkSignal: false }],
    ["a CLOSE reported cancelled is not a close", link(), order("CLOSE"), "1.00", { status: "cancelled" }, "501", { next: link(), write: "none", checkSignal: false }],
  ])("%s", (_name, current, o, opening, report, previous, expected) => {
    expect(linkAfterReport(current, o, opening, report, previous)).toEqual(expected);
  });

  it("plays the out-of-order story of copy-rules.test.ts: close reported before the open, then the rest", () => {
    // OPEN 1.00 queued; master closes 0.50 before the slave reports the open.
    let l: CopyLink | null = null;
    l = linkAfterReport(l, order("CLOSE", { slaveTicket: null, volume: "0.50" }), "1.00", { status: "closed", volume: "0.50", remainingTicket: "77" }, null).next;
    expect(l).toEqual({ slaveTicket: "77", volume: "0.5", status: "open" });
    // The open's report arrives late: it must not resize or re-ticket the copy.
    l = linkAfterReport(l, order("OPEN", { slaveTicket: "76" }), null, { status: "filled", volume: "1.00" }, null).next;
    expect(l).toEqual({ slaveTicket: "77", volume: "0.5", status: "open" });
    // The master closes the rest.
    l = linkAfterReport(l, order("CLOSE", { slaveTicket: "77", volume: "0.50" }), "1.00", { status: "closed", volume: "0.50" }, "77").next;
    expect(l).toEqual({ slaveTicket: "77", volume: "0", status: "closed" });
  });
});

describe("closeAllLinks", () => {
  it("closes every open link and records unreported opens as closed copies", () => {
    const links = [
      { signalId: "a", status: "open" as const },
      { signalId: "b", status: "closed" as const },
      { signalId: "c", status: "open" as const },
    ];
    expect(closeAllLinks(links, ["d", "a", null, "d", "b", "e"])).toEqual({
      closeLinks: ["a", "c"],
      insertClosed: ["d", "e"],
      touchedSignalIds: ["a", "c", "d", "a", "b", "e"],
    });
  });

  it("does nothing on a slave with no copies", () => {
    expect(closeAllLinks([], [])).toEqual({ closeLinks: [], insertClosed: [], touchedSignalIds: [] });
  });
});

describe("isSignalComplete", () => {
  it.each([
    [{ active: true, masterClosed: true, openLinks: 0, pendingOrders: 0 }, true],
    [{ active: true, masterClosed: false, openLinks: 0, pendingOrders: 0 }, false],
    [{ active: true, masterClosed: true, openLinks: 1, pendingOrders: 0 }, false],
    [{ active: true, masterClosed: true, openLinks: 0, pendingOrders: 2 }, false],
    [{ active: false, masterClosed: true, openLinks: 0, pendingOrders: 0 }, false],
  ])("%o → %s", (s, complete) => {
    expect(isSignalComplete(s)).toBe(complete);
  });
});
