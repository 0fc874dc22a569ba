/** inFlightOf: orders still pending, or reported after the compared snapshot, are not judged again. */
import { describe, expect, it } from "vitest";
import { inFlightOf, type OrderFact } from "./store.ts";

const AT = new Date("2026-11-20T10:00:00Z");
const before = new Date(AT.getTime() - 1000);
const after = new Date(AT.getTime() + 1000);
const o = (over: Partial<OrderFact>): OrderFact => ({ signalId: "sig-1", action: "OPEN", status: "pending", slaveTicket: null, reportedAt: null, ...over });

describe("inFlightOf", () => {
  it("a pending open is in flight; one filled after the snapshot too; one filled before it is not", () => {
    expect(inFlightOf([o({})], AT).openInFlight).toEqual(["sig-1"]);
    expect(inFlightOf([o({ status: "filled", slaveTicket: "9002", reportedAt: after })], AT)).toEqual({ openInFlight: ["sig-1"], closingTickets: [], busyTickets: ["9002"] });
    expect(inFlightOf([o({ status: "filled", slaveTicket: "9002", reportedAt: before })], AT)).toEqual({ openInFlight: [], closingTickets: [], busyTickets: [] });
    // A failed open after the snapshot is not in flight: the copy is still missing.
    expect(inFlightOf([o({ status: "rejected", reportedAt: after })], AT).openInFlight).toEqual([]);
  });

  it("a close pending or done after the snapshot marks its ticket closing; a modify done after it marks it busy", () => {
    const got = inFlightOf(
      [
        o({ signalId: null, action: "CLOSE", slaveTicket: "9100" }),
        o({ signalId: null, action: "CLOSE", status: "closed", slaveTicket: "9101", reportedAt: after }),
        o({ action: "MODIFY", status: "modified", slaveTicket: "9001", reportedAt: after }),
        o({ action: "MODIFY", status: "error", slaveTicket: "9003", reportedAt: after }),
      ],
      AT,
    );
    expect(got.closingTickets.sort()).toEqual(["9100", "9101"]);
    expect(got.busyTickets.sort()).toEqual(["9001", "9100", "9101"]);
  });

  it("without a snapshot time only pending orders count", () => {
    expect(inFlightOf([o({ status: "filled", reportedAt: after })], null).openInFlight).toEqual([]);
  });
});
