/** repairRows: the executions a plan's orders become (origin sync, on the right signal and ticket). */
import { describe, expect, it } from "vitest";
import type { SyncOrder } from "#contract";
import { repairRows } from "./repair.ts";
import { assembleSlaveInput } from "./slave-status.ts";
import { emptyRows, facts, position, signalRow, T0 } from "./test-fixtures.ts";

const NOW = new Date(T0);
const order = (over: Partial<SyncOrder>): SyncOrder => ({
  differenceId: "d",
  action: "OPEN",
  masterTicket: "5001",
  slaveTicket: null,
  symbol: "EURUSD",
  side: "BUY",
  volume: "1.00",
  price: "1.08456",
  sl: "1.08",
  tp: "1.09",
  maxDeviationPts: 20,
  reason: "r",
  ...over,
});

describe("repairRows", () => {
  it("an OPEN of a copy closed by hand: on the copy's signal, its comment, expiring one lifetime from now; the stale link goes", () => {
    const assembled = assembleSlaveInput(facts({ rows: emptyRows({ links: [{ signalId: "sig-1", slaveTicket: "9001", volume: "1" }] }) }));
    const { rows, staleLinkSignalIds } = repairRows("tenant-1", "slave-1", [order({ differenceId: "missing_copy:5001:-" })], assembled, NOW);
    expect(staleLinkSignalIds).toEqual(["sig-1"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tenantId: "tenant-1",
      slaveAccountId: "slave-1",
      signalId: "sig-1",
      action: "OPEN",
      status: "pending",
      origin: "sync",
      masterTicket: "5001",
      orderType: "MARKET",
      volume: "1.00",
      price: "1.08456",
      sl: "1.08",
      tp: "1.09",
      comment: "cb:5001",
      magic: "777",
      maxDeviationPts: 20,
      expiresAt: new Date(T0 + 60_000),
    });
  });

  it("a netting leg's OPEN carries the leg's comment; a missing copy without a link deletes nothing", () => {
    const assembled = assembleSlaveInput(facts({ signals: [signalRow({ id: "sig-0" }), signalRow({ id: "sig-2", leg: 2, volume: "0.5" })], rows: emptyRows({ openInFlight: ["sig-0"] }) }));
    const { rows, staleLinkSignalIds } = repairRows("tenant-1", "slave-1", [order({ volume: "0.50" })], assembled, NOW);
    expect(staleLinkSignalIds).toEqual([]);
    expect(rows[0]).toMatchObject({ signalId: "sig-2", comment: "cb:5001/2" });
  });

  it("an orphan's CLOSE has no signal and names the lots the snapshot showed", () => {
    const assembled = assembleSlaveInput(facts({ signals: [], positions: [position("9100", { volume: "0.40", comment: "cb:4000" })] }));
    const { rows } = repairRows("tenant-1", "slave-1", [order({ action: "CLOSE", masterTicket: null, slaveTicket: "9100", volume: null, price: null, sl: null, tp: null, maxDeviationPts: null })], assembled, NOW);
    expect(rows[0]).toMatchObject({ signalId: null, action: "CLOSE", masterTicket: null, slaveTicket: "9100", volume: "0.40", origin: "sync", expiresAt: null, comment: null });
  });

  it("a partial CLOSE and a MODIFY act on the linked copy's signal and ticket", () => {
    const assembled = assembleSlaveInput(facts({ rows: emptyRows({ links: [{ signalId: "sig-1", slaveTicket: "9001", volume: "1.5" }] }), positions: [position("9001", { volume: "1.5" })] }));
    const { rows } = repairRows(
      "tenant-1",
      "slave-1",
      [
        order({ action: "CLOSE", slaveTicket: "9001", volume: "0.50", price: null, sl: null, tp: null }),
        order({ action: "MODIFY", slaveTicket: "9001", volume: null, price: null, sl: "1.079", tp: "1.095" }),
      ],
      assembled,
      NOW,
    );
    expect(rows[0]).toMatchObject({ signalId: "sig-1", action: "CLOSE", slaveTicket: "9001", volume: "0.50", sl: null, tp: null, comment: "cb:5001" });
    expect(rows[1]).toMatchObject({ signalId: "sig-1", action: "MODIFY", slaveTicket: "9001", volume: null, sl: "1.079", tp: "1.095" });
  });

  it("close and reopen at another volume: the close of the old ticket is signal-less, the open re-creates the copy", () => {
    const assembled = assembleSlaveInput(facts({ rows: emptyRows({ links: [{ signalId: "sig-1", slaveTicket: "9001", volume: "0.5" }] }), positions: [position("9001", { volume: "0.5" })] }));
    const { rows, staleLinkSignalIds } = repairRows(
      "tenant-1",
      "slave-1",
      [order({ action: "CLOSE", slaveTicket: "9001", volume: "0.50", price: null, sl: null, tp: null }), order({ action: "OPEN", volume: "1.00" })],
      assembled,
      NOW,
    );
    expect(staleLinkSignalIds).toEqual(["sig-1"]);
    expect(rows[0]).toMatchObject({ signalId: null, action: "CLOSE", slaveTicket: "9001", volume: "0.50", masterTicket: "5001" });
    expect(rows[1]).toMatchObject({ signalId: "sig-1", action: "OPEN", volume: "1.00" });
  });

  it("a netting slave's addition to the position it still holds keeps the copy's link", () => {
    const assembled = assembleSlaveInput(facts({ rows: emptyRows({ links: [{ signalId: "sig-1", slaveTicket: "9001", volume: "0.5" }] }), positions: [position("9001", { volume: "0.5" })] }));
    const { rows, staleLinkSignalIds } = repairRows("tenant-1", "slave-1", [order({ action: "OPEN", volume: "0.50" })], assembled, NOW);
    expect(staleLinkSignalIds).toEqual([]);
    expect(rows[0]).toMatchObject({ signalId: "sig-1", action: "OPEN", volume: "0.50" });
  });
});
