import type { AuditLog } from "#contract";
import { describe, expect, it } from "vitest";
import { type LogPages, flattenLogPages, mergeNewestPage, toLogPage } from "./log-pages";

const log = (id: number): AuditLog => ({
  id: String(id),
  level: "info",
  category: "trade",
  source: "bridge",
  message: `entry ${id}`,
  createdAt: "2025-01-15T12:00:00.000Z",
  accountId: null,
  signalId: null,
  metadata: null,
});
/** Newest-first ids from `from` down to `to`. */
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => log(from - i));
const pages = (...lists: AuditLog[][]): LogPages => ({
  pages: lists.map((l) => toLogPage(l, 3)),
  pageParams: lists.map((_, i) => (i === 0 ? null : String(i))),
});

describe("toLogPage", () => {
  it("points at the last id of a full page and ends on a short one", () => {
    expect(toLogPage(range(10, 8), 3).nextBefore).toBe("8");
    expect(toLogPage(range(2, 1), 3).nextBefore).toBeNull();
    expect(toLogPage([], 3).nextBefore).toBeNull();
  });
});

describe("flattenLogPages", () => {
  it("lists every loaded entry newest first", () => {
    expect(flattenLogPages(pages(range(10, 8), range(7, 5))).map((l) => l.id)).toEqual(["10", "9", "8", "7", "6", "5"]);
    expect(flattenLogPages(undefined)).toEqual([]);
  });
});

describe("mergeNewestPage", () => {
  it("prepends new entries to the first page and keeps the older pages", () => {
    const merged = mergeNewestPage(pages(range(10, 8), range(7, 5)), range(12, 10), 3);
    expect(merged).not.toBe("reset");
    expect(flattenLogPages(merged as LogPages).map((l) => l.id)).toEqual(["12", "11", "10", "9", "8", "7", "6", "5"]);
    expect((merged as LogPages).pages[1]?.nextBefore).toBe("5");
  });

  it("changes nothing when nothing is new", () => {
    expect(mergeNewestPage(pages(range(10, 8)), range(10, 8), 3)).toBeNull();
  });

  it("asks for a reset when a whole page is new (a gap is possible)", () => {
    expect(mergeNewestPage(pages(range(10, 8)), range(20, 18), 3)).toBe("reset");
  });

  it("fills an empty list", () => {
    const merged = mergeNewestPage(pages([]), range(2, 1), 3) as LogPages;
    expect(flattenLogPages(merged).map((l) => l.id)).toEqual(["2", "1"]);
    expect(merged.pages[0]?.nextBefore).toBeNull();
  });
});
