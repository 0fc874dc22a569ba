import { describe, expect, it } from "vitest";
import { NAV_ITEMS, isNavItemActive } from "./nav-items";

describe("NAV_ITEMS (§2)", () => {
  it("lists the 11 entries in the spec's order", () => {
    expect(NAV_ITEMS.map((i) => [i.label, i.path])).toEqual([
      ["Overview", "/"],
      ["Master Account", "/master"],
      ["Slave Accounts", "/slaves"],
      ["Live Trades", "/trades"],
      ["Symbol Mapping", "/mappings"],
      ["Risk Controls", "/risk"],
      ["Analytics", "/analytics"],
      ["Alerts", "/alerts"],
      ["Audit Logs", "/logs"],
      ["Bridge Server", "/bridge"],
      ["Settings", "/settings"],
    ]);
  });
  it("derives nav-<route name> test ids", () => {
    expect(NAV_ITEMS.map((i) => i.testId)).toContain("nav-slave-accounts");
    expect(NAV_ITEMS[0]?.testId).toBe("nav-overview");
  });
});

describe("isNavItemActive (§2)", () => {
  it("matches the root route only exactly", () => {
    expect(isNavItemActive("/", "/")).toBe(true);
    expect(isNavItemActive("/", "/slaves")).toBe(false);
  });
  it("matches non-root routes by prefix", () => {
    expect(isNavItemActive("/slaves", "/slaves")).toBe(true);
    expect(isNavItemActive("/slaves", "/slaves/123")).toBe(true);
    expect(isNavItemActive("/master", "/slaves")).toBe(false);
  });
});
