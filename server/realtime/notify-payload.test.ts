import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { ServerMessage } from "#contract";
import { decodeNotice, encodeNotice, foreignNotice, MAX_PAYLOAD_BYTES, noticeOf, type Notice } from "./notify-payload.ts";

const me = randomUUID();
const other = randomUUID();
const tenantId = randomUUID();

describe("notice payloads", () => {
  it("round-trips a notice through one payload", () => {
    const n: Notice = { instance: other, tenantId, kind: "execution_result", ids: [randomUUID(), randomUUID()] };
    const payloads = encodeNotice(n);
    expect(payloads).toHaveLength(1);
    expect(decodeNotice(payloads[0]!)).toEqual(n);
  });

  it("splits many ids over payloads under PostgreSQL's 8000-byte limit, in order and complete", () => {
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    const payloads = encodeNotice({ instance: other, tenantId, kind: "orders", ids });
    expect(payloads.length).toBeGreaterThan(4);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const back = payloads.map((p) => decodeNotice(p)!);
    expect(back.flatMap((n) => n.ids)).toEqual(ids);
    for (const n of back) expect(n).toMatchObject({ instance: other, tenantId, kind: "orders" });
  });

  it("keeps a notice without ids (tenant_updated) and bigint ids", () => {
    expect(decodeNotice(encodeNotice({ instance: other, tenantId, kind: "tenant_updated", ids: [] })[0]!)).toMatchObject({ ids: [] });
    expect(decodeNotice(encodeNotice({ instance: other, tenantId, kind: "account_deleted", ids: ["9007199254740993"] })[0]!)?.ids).toEqual(["9007199254740993"]);
  });

  it("refuses malformed payloads instead of throwing", () => {
    const good = JSON.parse(encodeNotice({ instance: other, tenantId, kind: "orders", ids: ["a"] })[0]!) as Record<string, unknown>;
    for (const bad of [
      "not json",
      "null",
      JSON.stringify({ ...good, v: 2 }),
      JSON.stringify({ ...good, k: "drop_table" }),
      JSON.stringify({ ...good, ids: ["x'; drop"] }),
      JSON.stringify({ ...good, t: undefined }),
      JSON.stringify({ ...good, ids: "a" }),
    ]) {
      expect(decodeNotice(bad)).toBeNull();
    }
  });

  it("drops this instance's own notices and keeps the others'", () => {
    const [mine] = encodeNotice({ instance: me, tenantId, kind: "orders", ids: ["1"] });
    const [theirs] = encodeNotice({ instance: other, tenantId, kind: "orders", ids: ["1"] });
    expect(foreignNotice(mine!, me)).toBeNull();
    expect(foreignNotice(theirs!, me)).toMatchObject({ instance: other, ids: ["1"] });
    expect(foreignNotice("garbage", me)).toBeNull();
  });

  it("drops an own notice by its prefix, without parsing it", () => {
    const [mine] = encodeNotice({ instance: me, tenantId, kind: "orders", ids: ["1", "2"] });
    expect(mine!.startsWith(`{"v":1,"i":"${me}",`)).toBe(true);
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(foreignNotice(mine!, me)).toBeNull();
      expect(parse).not.toHaveBeenCalled();
      // Another instance's notice, and one whose id only starts like this instance's, are read.
      expect(foreignNotice(encodeNotice({ instance: other, tenantId, kind: "orders", ids: ["1"] })[0]!, me)).toMatchObject({ instance: other });
      expect(foreignNotice(encodeNotice({ instance: `${me}-2`, tenantId, kind: "orders", ids: ["1"] })[0]!, me)).toMatchObject({ instance: `${me}-2` });
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });
});

describe("noticeOf", () => {
  const id = randomUUID();
  it.each([
    [{ type: "new_signal", data: { id } }, { kind: "new_signal", ids: [id] }],
    [{ type: "execution_result", data: { id } }, { kind: "execution_result", ids: [id] }],
    [{ type: "trade_closed", data: { signalId: id } }, { kind: "trade_closed", ids: [id] }],
    [{ type: "account_deleted", data: { id } }, { kind: "account_deleted", ids: [id] }],
    [{ type: "sync_updated", data: { accountId: id } }, { kind: "sync_updated", ids: [id] }],
    [{ type: "tenant_updated", data: { copyPaused: true } }, { kind: "tenant_updated", ids: [] }],
  ])("%j → ids only", (message, expected) => {
    expect(noticeOf(message as ServerMessage)).toEqual(expected);
  });

  it("keeps per-socket messages on their instance", () => {
    expect(noticeOf({ type: "heartbeat", data: { ts: 1 } })).toBeNull();
    expect(noticeOf({ type: "connected", data: { tenantId } })).toBeNull();
  });
});
