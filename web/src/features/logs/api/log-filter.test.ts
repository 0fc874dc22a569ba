import type { AuditLog } from "#contract";
import { describe, expect, it } from "vitest";
import {
  ANY_REASON,
  LOG_FILTERS,
  LOG_FILTER_LABELS,
  auditExportUrl,
  auditLogsUrl,
  emptyLogsMessage,
  logFilterQuery,
  matchesLogFilter,
  REASON_OPTIONS,
} from "./log-filter";
import { filenameFromDisposition } from "@/lib/download";
import { compareLogIds, formatLogTime, formatMetadata, newerLogs, shortId } from "./log-format";

const log = (patch: Partial<AuditLog>): AuditLog => ({
  id: "1",
  level: "info",
  category: "system",
  source: "bridge",
  message: "m",
  createdAt: "2025-01-15T12:00:00.000Z",
  accountId: null,
  signalId: null,
  metadata: null,
  ...patch,
});

describe("log filters (§2 /logs)", () => {
  it("has the four §2 choices in order", () => {
    expect(LOG_FILTERS.map((f) => LOG_FILTER_LABELS[f])).toEqual(["All Events", "Trade Events", "System Events", "Error Events"]);
  });

  it("maps each filter to the server query", () => {
    expect(logFilterQuery("all")).toEqual({});
    expect(logFilterQuery("trade")).toEqual({ type: "trade" });
    expect(logFilterQuery("system")).toEqual({ type: "system" });
    expect(logFilterQuery("error")).toEqual({ level: "error" });
  });

  it("builds page URLs with keyset paging", () => {
    expect(auditLogsUrl("all")).toBe("/api/audit-logs?limit=100");
    expect(auditLogsUrl("trade", "1234")).toBe("/api/audit-logs?type=trade&before=1234&limit=100");
    expect(auditLogsUrl("error", null, 50)).toBe("/api/audit-logs?level=error&limit=50");
  });

  it("builds export URLs with the same filter", () => {
    expect(auditExportUrl("csv", "all")).toBe("/api/audit-logs/export?format=csv");
    expect(auditExportUrl("json", "system")).toBe("/api/audit-logs/export?format=json&type=system");
    expect(auditExportUrl("csv", "error")).toBe("/api/audit-logs/export?format=csv&level=error");
  });

  it("matches entries against a filter", () => {
    expect(matchesLogFilter(log({ category: "trade" }), "trade")).toBe(true);
    expect(matchesLogFilter(log({ category: "system" }), "trade")).toBe(false);
    expect(matchesLogFilter(log({ level: "error", category: "trade" }), "error")).toBe(true);
    expect(matchesLogFilter(log({ level: "warning" }), "error")).toBe(false);
    expect(matchesLogFilter(log({}), "all")).toBe(true);
  });

  it("says the §2 empty states word for word", () => {
    expect(emptyLogsMessage("all")).toBe("No audit logs available");
    expect(emptyLogsMessage("trade")).toBe("No trade events found");
    expect(emptyLogsMessage("system")).toBe("No system events found");
    expect(emptyLogsMessage("error")).toBe("No error events found");
  });
});

describe("filenameFromDisposition", () => {
  it("reads quoted, bare and RFC 5987 names", () => {
    expect(filenameFromDisposition('attachment; filename="audit-logs-2025-01-15-12-00-00.csv"', "x")).toBe("audit-logs-2025-01-15-12-00-00.csv");
    expect(filenameFromDisposition("attachment; filename=logs.json", "x")).toBe("logs.json");
    expect(filenameFromDisposition("attachment; filename*=UTF-8''audit%20logs.csv", "x")).toBe("audit logs.csv");
  });
  it("falls back without a usable header", () => {
    expect(filenameFromDisposition(null, "audit-logs.csv")).toBe("audit-logs.csv");
    expect(filenameFromDisposition("attachment", "audit-logs.csv")).toBe("audit-logs.csv");
  });
});

describe("entry formatting", () => {
  it("shows the last 8 characters of ids", () => {
    expect(shortId("9fe32a18-44d5-4b52-8ea8-67668060c41f")).toBe("8060c41f");
    expect(shortId("abc")).toBe("abc");
  });

  it("formats metadata as indented JSON and hides empty metadata", () => {
    expect(formatMetadata({ broker: "XM", lots: 0.5 })).toBe('{\n  "broker": "XM",\n  "lots": 0.5\n}');
    expect(formatMetadata(null)).toBeNull();
    expect(formatMetadata({})).toBeNull();
  });

  it("formats times and keeps unparseable values", () => {
    expect(formatLogTime("2025-01-15T12:00:00.000Z")).toMatch(/Jan 1[45], 2025/);
    expect(formatLogTime("soon")).toBe("soon");
  });

  it("compares bigint ids numerically", () => {
    expect(compareLogIds("10", "9")).toBe(1);
    expect(compareLogIds("9007199254740993", "9007199254740992")).toBe(1);
    expect(compareLogIds("5", "5")).toBe(0);
  });

  it("keeps only entries newer than the loaded ones", () => {
    const fresh = [log({ id: "12" }), log({ id: "11" }), log({ id: "10" })];
    expect(newerLogs(fresh, "10").map((l) => l.id)).toEqual(["12", "11"]);
    expect(newerLogs(fresh, undefined).map((l) => l.id)).toEqual(["12", "11", "10"]);
    expect(newerLogs(fresh, "12")).toEqual([]);
  });
});

describe("reason filter (issue 13)", () => {
  it("lists any reason first, then every verdict code with its label", () => {
    expect(REASON_OPTIONS[0]).toEqual({ value: ANY_REASON, label: "Any reason" });
    expect(REASON_OPTIONS).toContainEqual({ value: "outside_hours", label: "Outside trading hours" });
    expect(REASON_OPTIONS).toContainEqual({ value: "paused", label: "Copying paused" });
  });

  it("asks the server for reasonCode, list and export alike", () => {
    expect(auditLogsUrl("trade", null, 100, "close_only")).toBe("/api/audit-logs?type=trade&reasonCode=close_only&limit=100");
    expect(auditLogsUrl("all", null, 100, ANY_REASON)).toBe("/api/audit-logs?limit=100");
    expect(auditExportUrl("csv", "all", "paused")).toBe("/api/audit-logs/export?format=csv&reasonCode=paused");
  });

  it("matches entries as the server does: metadata.reasonCode, or a listed skip", () => {
    expect(matchesLogFilter(log({ metadata: { reasonCode: "close_only" } }), "all", "close_only")).toBe(true);
    expect(matchesLogFilter(log({ metadata: { skips: [{ accountId: "a", code: "paused", reasonCode: "paused", reason: "Copying is paused" }] } }), "all", "paused")).toBe(true);
    expect(matchesLogFilter(log({ metadata: { reasonCode: "expired" } }), "all", "close_only")).toBe(false);
    expect(matchesLogFilter(log({ metadata: null }), "all", "close_only")).toBe(false);
    expect(matchesLogFilter(log({ metadata: null }), "all", ANY_REASON)).toBe(true);
    expect(emptyLogsMessage("all", "paused")).toBe('No events found for reason "Copying paused"');
    expect(emptyLogsMessage("trade", ANY_REASON)).toBe("No trade events found");
  });
});
