import { describe, expect, it } from "vitest";
import { parseServerMessage, realtimeUrl } from "./realtime-message";

describe("parseServerMessage (§4)", () => {
  it("parses {type, data} JSON", () => {
    expect(parseServerMessage('{"type":"account_updated","data":{"id":"a"}}')).toEqual({ type: "account_updated", data: { id: "a" } });
  });
  it("rejects unparseable or shapeless messages", () => {
    expect(parseServerMessage("not json")).toBeNull();
    expect(parseServerMessage("[1,2]")).toBeNull();
    expect(parseServerMessage('{"data":{}}')).toBeNull();
    expect(parseServerMessage('{"type":5}')).toBeNull();
    expect(parseServerMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe("realtimeUrl (§7)", () => {
  it("uses ws on http and wss on https, on the page's host", () => {
    expect(realtimeUrl({ protocol: "http:", host: "localhost:5173" }, null)).toBe("ws://localhost:5173/ws");
    expect(realtimeUrl({ protocol: "https:", host: "app.example.com" }, null)).toBe("wss://app.example.com/ws");
  });
  it("appends the stored token", () => {
    expect(realtimeUrl({ protocol: "http:", host: "h" }, "a b")).toBe("ws://h/ws?token=a%20b");
  });
});
