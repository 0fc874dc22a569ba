import { masterHeartbeatSchema, signalEventSchema } from "#contract";
import { describe, expect, it } from "vitest";
import { buildHeartbeatRequest, buildSignalRequest, createSignalRequestCache, sampleSignal, sampleSignalText } from "./test-payload";

const NOW = 1732200000;
const editor = sampleSignalText(NOW - 100, 90000001);

describe("sample signal (§3 sample signal event)", () => {
  it("is a valid OPEN signal event with every §3 field", () => {
    const sample = sampleSignal(NOW, 90000001);
    expect(signalEventSchema.safeParse(sample).success).toBe(true);
    expect(Object.keys(sample)).toEqual(["id", "type", "ts", "master", "order", "risk", "idempotencyKey"]);
    expect(Object.keys(sample.master)).toEqual(["login", "alias", "magic", "server"]);
    expect(Object.keys(sample.order)).toEqual(["ticket", "symbol", "side", "orderType", "volume", "price", "sl", "tp", "comment"]);
    expect(Object.keys(sample.risk ?? {})).toEqual(["atr", "slDistancePts"]);
    expect(sample.order.orderType).toBe("MARKET");
  });

  it("fills the editor as indented JSON", () => {
    expect(JSON.parse(editor)).toEqual(sampleSignal(NOW - 100, 90000001));
    expect(editor.split("\n").length).toBeGreaterThan(15);
  });
});

describe("buildHeartbeatRequest", () => {
  it("takes login and server from the editor's master", () => {
    const request = buildHeartbeatRequest(editor);
    expect(request?.path).toBe("/v1/master/heartbeat");
    expect(request?.body).toBe('{"login":"50001234","server":"ICMarkets-Demo","balance":"10000.00","equity":"10000.00","currency":"USD"}');
    expect(masterHeartbeatSchema.safeParse(JSON.parse(request!.body)).success).toBe(true);
  });

  it("refuses invalid JSON or a payload without a master login", () => {
    expect(buildHeartbeatRequest("{ not json")).toBeNull();
    expect(buildHeartbeatRequest("[]")).toBeNull();
    expect(buildHeartbeatRequest('{"master":{}}')).toBeNull();
  });
});

describe("buildSignalRequest", () => {
  it("sets the type, ts and a per-type idempotency key, keeping everything else", () => {
    for (const [type, path, suffix] of [
      ["OPEN", "/v1/master/signal/open", "open"],
      ["MODIFY", "/v1/master/signal/modify", "modify"],
      ["CLOSE", "/v1/master/signal/close", "close"],
    ] as const) {
      const request = buildSignalRequest(editor, type, NOW);
      expect(request?.path).toBe(path);
      const body = JSON.parse(request!.body);
      expect(body).toEqual({ ...JSON.parse(editor), type, ts: NOW, idempotencyKey: `50001234-90000001-${suffix}` });
      expect(signalEventSchema.safeParse(body).success).toBe(true);
    }
  });

  it("sends compact JSON, the exact text that gets signed", () => {
    const request = buildSignalRequest(editor, "OPEN", NOW);
    expect(request?.body).not.toContain("\n");
    expect(request?.body.startsWith('{"id":"evt-90000001","type":"OPEN","ts":1732200000,')).toBe(true);
  });

  it("refuses anything but a JSON object", () => {
    expect(buildSignalRequest("", "OPEN", NOW)).toBeNull();
    expect(buildSignalRequest("{'single': 1}", "OPEN", NOW)).toBeNull();
    expect(buildSignalRequest("42", "OPEN", NOW)).toBeNull();
  });
});

describe("createSignalRequestCache", () => {
  it("resends identical bytes for an unchanged editor and button", () => {
    const build = createSignalRequestCache();
    const first = build(editor, "OPEN", NOW);
    expect(build(editor, "OPEN", NOW + 30)).toBe(first);
    expect(build(editor, "CLOSE", NOW + 30)?.body).toContain('"ts":1732200030');
    const edited = editor.replace('"0.50"', '"0.20"');
    expect(build(edited, "OPEN", NOW + 40)?.body).toContain('"ts":1732200040');
  });

  it("does not remember invalid payloads", () => {
    const build = createSignalRequestCache();
    expect(build("{", "OPEN", NOW)).toBeNull();
  });
});
