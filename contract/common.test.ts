import { describe, expect, it } from "vitest";
import { CONTROL_CHARS_MESSAGE, hasControlChars, terminalText, text } from "./common.ts";
import { errorCodeSchema, magicSchema, signalEventSchema } from "./bridge.ts";
import { executionReportSchema } from "./bridge-orders.ts";
import { updateSymbolMapRequestSchema } from "./symbol-maps.ts";
import { listAuditLogsQuerySchema } from "./audit.ts";

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.error?.issues ?? []).map((i) => i.message);

describe("text", () => {
  it("trims and bounds one-line text", () => {
    expect(text(5).parse("  abc ")).toBe("abc");
    expect(messages(text(5).safeParse("abcdef"))).toEqual(["Must be at most 5 characters"]);
    expect(messages(text(5, "Name is too long").safeParse("abcdef"))).toEqual(["Name is too long"]);
  });
  it("refuses NUL, other C0/C1 controls, DEL and unpaired surrogates", () => {
    for (const bad of ["a\u0000b", "a\tb", "a\nb", "a\u007fb", "a\u0085b", "a\ud800b", "a\udc00"]) {
      expect(messages(text(50).safeParse(bad)), JSON.stringify(bad)).toEqual([CONTROL_CHARS_MESSAGE]);
    }
    expect(text(50).parse("Müller 😀 €")).toBe("Müller 😀 €");
  });
  it("hasControlChars accepts paired surrogates", () => {
    expect(hasControlChars("😀")).toBe(false);
    expect(hasControlChars("\u0000")).toBe(true);
  });
});

describe("terminalText", () => {
  it("replaces control characters instead of refusing, then bounds the length", () => {
    expect(terminalText(64).parse("copy\u0000me\u0007 ")).toBe("copy me");
    expect(terminalText(10).parse("\ud800x")).toBe("x");
    expect(terminalText(3).safeParse("abcd").success).toBe(false);
  });
});

describe("wire numbers", () => {
  it("keeps error codes within int32", () => {
    expect(errorCodeSchema.parse("10004")).toBe(10004);
    expect(errorCodeSchema.parse(-2_147_483_648)).toBe(-2_147_483_648);
    expect(errorCodeSchema.safeParse(2 ** 31).success).toBe(false);
    expect(errorCodeSchema.safeParse("99999999999").success).toBe(false);
  });
  it("bounds magic numbers sent as JSON numbers", () => {
    expect(magicSchema.parse(777)).toBe("777");
    expect(magicSchema.parse("18446744073709551615")).toBe("18446744073709551615");
    expect(magicSchema.safeParse(1e300).success).toBe(false);
  });
  it("refuses report fill times in milliseconds or far ahead", () => {
    const base = { orderId: "5d6b2f3c-7a7e-4a3b-9a0e-6b9f1f6c2a11", status: "filled" } as const;
    expect(executionReportSchema.safeParse({ ...base, fillTime: 1e12 }).success).toBe(false);
    expect(executionReportSchema.safeParse({ ...base, fillTime: 253_402_300_800 }).success).toBe(false);
    expect(executionReportSchema.safeParse({ ...base, fillTime: Math.floor(Date.now() / 1000) }).success).toBe(true);
  });
  it("refuses prices beyond 20 integer digits and non-finite numbers", () => {
    const base = { orderId: "5d6b2f3c-7a7e-4a3b-9a0e-6b9f1f6c2a11", status: "filled" } as const;
    expect(executionReportSchema.safeParse({ ...base, fillPrice: 1e20 }).success).toBe(false);
    expect(executionReportSchema.safeParse({ ...base, fillPrice: "1e5" }).success).toBe(false);
    expect(executionReportSchema.safeParse({ ...base, fillPrice: -1 }).success).toBe(false);
  });
  it("refuses a signal ts at year 10000", () => {
    const ev = {
      id: "e1",
      type: "OPEN",
      ts: 253_402_300_800,
      master: { login: "1" },
      order: { ticket: 1, symbol: "EURUSD", side: "BUY", orderType: "MARKET" },
      idempotencyKey: "idem-12345",
    };
    expect(signalEventSchema.safeParse(ev).success).toBe(false);
  });
  it("keeps audit cursors within bigint", () => {
    expect(listAuditLogsQuerySchema.safeParse({ before: "9223372036854775807" }).success).toBe(true);
    expect(listAuditLogsQuerySchema.safeParse({ before: "9223372036854775808" }).success).toBe(false);
  });
});

describe("update bodies", () => {
  it("refuses an empty symbol-map update", () => {
    expect(messages(updateSymbolMapRequestSchema.safeParse({}))).toEqual(["Nothing to update: send at least one field"]);
    expect(updateSymbolMapRequestSchema.safeParse({ enabled: false }).success).toBe(true);
  });
});
