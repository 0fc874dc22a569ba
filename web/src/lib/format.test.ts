import { describe, expect, it } from "vitest";
import { formatDate, formatDuration, formatMoney, formatNumber, formatRelativeTime, formatUsd, toNumber } from "./format";

describe("toNumber", () => {
  it("parses numeric strings and numbers", () => {
    expect(toNumber("10000.50")).toBe(10000.5);
    expect(toNumber(-3)).toBe(-3);
  });
  it("returns null for missing or non-numeric input", () => {
    expect(toNumber(null)).toBeNull();
    expect(toNumber(undefined)).toBeNull();
    expect(toNumber("")).toBeNull();
    expect(toNumber("abc")).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
  });
});

describe("formatUsd (§9 dollar amounts)", () => {
  it("uses en-US thousands separators and 2 decimals", () => {
    expect(formatUsd("1234567.891")).toBe("$1,234,567.89");
    expect(formatUsd("10000")).toBe("$10,000.00");
    expect(formatUsd(0.5)).toBe("$0.50");
  });
  it("shows '$0.00' when missing", () => {
    expect(formatUsd(null)).toBe("$0.00");
    expect(formatUsd(undefined)).toBe("$0.00");
    expect(formatUsd("")).toBe("$0.00");
    expect(formatUsd("not a number")).toBe("$0.00");
  });
  it("formats negatives with a minus sign", () => {
    expect(formatUsd("-1500.5")).toBe("-$1,500.50");
  });
});

describe("formatMoney (§9 master card, account currency)", () => {
  it("formats in the account currency with 2 decimals", () => {
    expect(formatMoney("10000", "USD")).toBe("$10,000.00");
    expect(formatMoney("1234.5", "EUR")).toBe("€1,234.50");
    expect(formatMoney("99.999", "GBP")).toBe("£100.00");
  });
  it("defaults to USD and to zero", () => {
    expect(formatMoney("5", null)).toBe("$5.00");
    expect(formatMoney(null, "USD")).toBe("$0.00");
  });
  it("falls back to a plain number with the code for an invalid currency", () => {
    expect(formatMoney("1234.5", "NOT-A-CODE")).toBe("1,234.50 NOT-A-CODE");
  });
});

describe("formatNumber", () => {
  it("uses thousands separators", () => {
    expect(formatNumber("1234567.125")).toBe("1,234,567.13");
    expect(formatNumber(null)).toBe("0");
  });
});

describe("formatDuration", () => {
  it("shows seconds under 60 s, then whole minutes", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(59_999)).toBe("59s");
    expect(formatDuration(60_000)).toBe("1m");
    expect(formatDuration(3 * 3600_000)).toBe("180m");
  });
  it("shows whole hours from 60 minutes when asked", () => {
    expect(formatDuration(59 * 60_000 + 59_000, { hours: true })).toBe("59m");
    expect(formatDuration(60 * 60_000, { hours: true })).toBe("1h");
    expect(formatDuration(26 * 3600_000, { hours: true })).toBe("26h");
  });
  it("clamps negative spans to 0 s", () => {
    expect(formatDuration(-5000)).toBe("0s");
  });
});

describe("formatRelativeTime (§9)", () => {
  const now = Date.parse("2025-01-15T12:00:00.000Z");
  it("says 'Never' without a timestamp", () => {
    expect(formatRelativeTime(null, now)).toBe("Never");
    expect(formatRelativeTime(undefined, now)).toBe("Never");
    expect(formatRelativeTime("garbage", now)).toBe("Never");
  });
  it("uses 'Ns ago' under a minute and 'Nm ago' after", () => {
    expect(formatRelativeTime("2025-01-15T11:59:45.000Z", now)).toBe("15s ago");
    expect(formatRelativeTime("2025-01-15T11:58:00.000Z", now)).toBe("2m ago");
    expect(formatRelativeTime("2025-01-15T09:00:00.000Z", now)).toBe("180m ago");
  });
  it("uses 'Nh ago' after 60 minutes on slave cards", () => {
    expect(formatRelativeTime("2025-01-15T09:00:00.000Z", now, { hours: true })).toBe("3h ago");
    expect(formatRelativeTime("2025-01-15T11:30:00.000Z", now, { hours: true })).toBe("30m ago");
  });
  it("accepts epoch milliseconds and Date objects", () => {
    expect(formatRelativeTime(now - 5000, now)).toBe("5s ago");
    expect(formatRelativeTime(new Date(now - 120_000), now)).toBe("2m ago");
  });
});

describe("formatDate", () => {
  it("formats a date or says 'Unknown'", () => {
    expect(formatDate("2025-01-15T12:00:00.000Z")).toMatch(/^1\/1[45]\/2025$/);
    expect(formatDate(null)).toBe("Unknown");
    expect(formatDate("nope")).toBe("Unknown");
  });
});
