import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./export-audit-logs.ts";

describe("audit CSV", () => {
  it("quotes fields with commas, quotes and newlines", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(null)).toBe("");
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });

  it("defuses spreadsheet formulas", () => {
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-5")).toBe("'-5");
  });

  it("writes one CRLF-terminated row in column order", () => {
    expect(
      csvRow({ id: "7", createdAt: "2026-01-01T00:00:00.000Z", level: "info", category: "trade", source: "bridge", message: "m", accountId: null, signalId: "s", metadata: null }),
    ).toBe("7,2026-01-01T00:00:00.000Z,info,trade,bridge,m,,s,\r\n");
  });
});
