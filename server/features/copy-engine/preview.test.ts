import { describe, expect, it } from "vitest";
import type { PreviewSlave, SignalEvent } from "#contract";
import { SecretBox } from "../api-keys/secret-box.ts";
import { canonicalJson, confirmTokenOf, type PreviewEvent } from "./preview.ts";

const secrets = SecretBox.fromHex("11".repeat(32));
const event: SignalEvent = {
  id: "evt-1",
  type: "OPEN",
  ts: 1_732_200_000,
  master: { login: "50001234", alias: "Main", magic: "777", server: "S" },
  order: { ticket: "1", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: null, tp: null, comment: null },
  risk: null,
  idempotencyKey: "key-00001",
};
const line = (over: Partial<PreviewSlave> = {}): PreviewSlave => ({
  slaveAccountId: "a",
  name: "Alpha",
  verdict: "rejected",
  reasonCode: "outside_hours",
  reason: "Outside trading hours Mon-Fri 08:00-17:00 (broker time Mon 07:59)",
  order: null,
  ...over,
});
const token = (e: PreviewEvent, slaves: PreviewSlave[], tenant = "t1") => confirmTokenOf({ secrets }, tenant, e, slaves);

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null }, u: undefined })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});

describe("confirmTokenOf", () => {
  const base = token(event, [line()]);
  it.each<[string, string, boolean]>([
    ["the same preview", token({ ...event }, [line()]), true],
    ["without the idempotency key", token({ ...event, idempotencyKey: undefined }, [line()]), true],
    ["a reason text that names another clock time", token(event, [line({ reason: "Outside trading hours Mon-Fri 08:00-17:00 (broker time Mon 07:58)" })]), true],
    ["another tenant", token(event, [line()], "t2"), false],
    ["another volume", token({ ...event, order: { ...event.order, volume: "0.60" } }, [line()]), false],
    ["another verdict", token(event, [line({ verdict: "skipped", reasonCode: "paused" })]), false],
    ["one slave more", token(event, [line(), line({ slaveAccountId: "b" })]), false],
    ["an order instead of a reject", token(event, [line({ verdict: "queued", reasonCode: null, reason: null, order: { action: "OPEN", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null, expiresAtMs: 1 } })]), false],
  ])("%s → same token: %s", (_name, other, same) => {
    expect(other === base).toBe(same);
  });

  it("is 32 bytes of base64url and needs the server key", () => {
    expect(base).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(confirmTokenOf({ secrets: SecretBox.fromHex("22".repeat(32)) }, "t1", event, [line()])).not.toBe(base);
  });
});
