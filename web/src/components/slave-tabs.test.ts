import type { Account } from "#contract";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import {
  ALL_TAB,
  SlaveTabs,
  defaultSlaveTab,
  filterSlaves,
  resolveSlaveTab,
  slaveTabLabel,
  splitSlaveTabs,
} from "./slave-tabs";

// The tabs' close-only badge asks the signed-in role whether it may resume copying; rendered here
// without a session, it is an owner's view.
vi.mock("@/lib/permissions", () => ({ usePermission: () => ({ allowed: true, reason: null }) }));

function slave(n: number, alias: string | null = `Slave ${n}`): Account {
  return {
    id: `id-${n}`,
    accountNumber: `700${n}`,
    alias,
    broker: n % 2 ? "Pepperstone" : "IC Markets",
    platform: "MT4",
    role: "SLAVE",
    status: "active",
    balance: "1000.00",
    equity: "1000.00",
    currency: "USD",
    lastHeartbeat: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    settings: null,
    isActive: true,
    server: null,
    login: null,
  };
}

const seven = Array.from({ length: 7 }, (_, i) => slave(i + 1));

describe("slaveTabLabel", () => {
  it("uses the alias, else the account number", () => {
    expect(slaveTabLabel(slave(1, "Main"))).toBe("Main");
    expect(slaveTabLabel(slave(2, null))).toBe("7002");
    expect(slaveTabLabel(slave(3, "  "))).toBe("7003");
  });
});

describe("default and resolved tab (§2)", () => {
  it("defaults to the first slave, else All", () => {
    expect(defaultSlaveTab(seven)).toBe("id-1");
    expect(defaultSlaveTab([])).toBe(ALL_TAB);
  });
  it("keeps a valid choice and falls back when the slave is gone", () => {
    expect(resolveSlaveTab(null, seven)).toBe("id-1");
    expect(resolveSlaveTab(ALL_TAB, seven)).toBe(ALL_TAB);
    expect(resolveSlaveTab("id-6", seven)).toBe("id-6");
    expect(resolveSlaveTab("deleted", seven)).toBe("id-1");
    expect(resolveSlaveTab("deleted", [])).toBe(ALL_TAB);
  });
});

describe("splitSlaveTabs (§9 first 5 get tabs)", () => {
  it("gives tabs to the first five and lists the rest as overflow", () => {
    const { tabs, overflow } = splitSlaveTabs(seven, ALL_TAB);
    expect(tabs.map((s) => s.id)).toEqual(["id-1", "id-2", "id-3", "id-4", "id-5"]);
    expect(overflow.map((s) => s.id)).toEqual(["id-6", "id-7"]);
  });
  it("adds a selected overflow slave as an extra tab", () => {
    const { tabs, overflow } = splitSlaveTabs(seven, "id-7");
    expect(tabs.map((s) => s.id)).toEqual(["id-1", "id-2", "id-3", "id-4", "id-5", "id-7"]);
    expect(overflow).toHaveLength(2);
  });
  it("has no overflow with five or fewer slaves", () => {
    expect(splitSlaveTabs(seven.slice(0, 5), "id-1").overflow).toEqual([]);
  });
});

describe("filterSlaves", () => {
  it("matches alias, account number and broker, case-insensitively", () => {
    expect(filterSlaves(seven, "slave 6").map((s) => s.id)).toEqual(["id-6"]);
    expect(filterSlaves(seven, "7007").map((s) => s.id)).toEqual(["id-7"]);
    expect(filterSlaves(seven, "ic markets").map((s) => s.id)).toEqual(["id-2", "id-4", "id-6"]);
    expect(filterSlaves(seven, "  ")).toHaveLength(7);
  });
});

describe("<SlaveTabs>", () => {
  const render = (slaves: Account[], value: string) =>
    renderToStaticMarkup(createElement(SlaveTabs, { slaves, value, onValueChange: () => undefined, children: createElement("p", null, "body") }));

  it("renders All, five slave tabs and the More picker", () => {
    const html = render(seven, "id-1");
    expect(html).toContain('data-testid="tab-all"');
    expect(html).toContain("All Accounts");
    for (const n of [1, 2, 3, 4, 5]) expect(html).toContain(`data-testid="tab-slave-id-${n}"`);
    expect(html).not.toContain('data-testid="tab-slave-id-6"');
    expect(html).toContain('data-testid="button-more-slaves"');
    expect(html).toContain("<p>body</p>");
  });
  it("shows a selected overflow slave as a tab", () => {
    expect(render(seven, "id-6")).toContain('data-testid="tab-slave-id-6"');
  });
  it("has no More picker for five slaves or fewer", () => {
    expect(render(seven.slice(0, 2), ALL_TAB)).not.toContain("button-more-slaves");
  });
});
