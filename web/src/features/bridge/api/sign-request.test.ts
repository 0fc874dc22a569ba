import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bridgeAuthHeaders, signBridgeRequest } from "./sign-request";

/** The worked example of docs/bridge-protocol.md, verified with openssl. */
const SECRET = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const BODY = '{"login":"50001234","server":"ICMarkets-Demo","balance":"10000.00","equity":"10012.50","currency":"USD"}';
const EXPECTED = "9d866e3251d98d1db7c42ff0111afdd9a72cccd4d0246291822d0f0a78e8970b";

describe("signBridgeRequest (§7 HMAC scheme)", () => {
  it("reproduces the worked example", async () => {
    await expect(signBridgeRequest(SECRET, "POST", "/v1/master/heartbeat", 1732200000, BODY)).resolves.toBe(EXPECTED);
  });

  it("upper-cases the method and accepts the timestamp as text", async () => {
    await expect(signBridgeRequest(SECRET, "post", "/v1/master/heartbeat", "1732200000", BODY)).resolves.toBe(EXPECTED);
  });

  it("matches Node's HMAC over METHOD + PATH + TS + BODY for other input", async () => {
    const body = '{"note":"ünïcødé ✓"}';
    const expected = createHmac("sha256", "s3cret").update(`GET/v1/slave/stream?accountId=x1732200001${body}`).digest("hex");
    await expect(signBridgeRequest("s3cret", "GET", "/v1/slave/stream?accountId=x", 1732200001, body)).resolves.toBe(expected);
  });

  it("builds the three headers", async () => {
    await expect(bridgeAuthHeaders("cbk_test", SECRET, "POST", "/v1/master/heartbeat", BODY, 1732200000)).resolves.toEqual({
      "x-api-key": "cbk_test",
      "x-ts": "1732200000",
      "x-signature": EXPECTED,
    });
  });
});
