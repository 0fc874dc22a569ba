import type { Account } from "#contract";
import { describe, expect, it } from "vitest";
import { accountsForScope, UNBOUND_SLAVE_KEY_QUESTION } from "./api-key-form";
import { boundAccountLabel } from "./api-key-list";

const account = (id: string, role: Account["role"]) => ({ id, role }) as Account;

describe("API key binding helpers (issue 11)", () => {
  it("offers the master to MASTER keys, the slaves to SLAVE keys and every account to DASHBOARD keys", () => {
    const all = [account("m", "MASTER"), account("s1", "SLAVE"), account("s2", "SLAVE")];
    expect(accountsForScope(all, "MASTER").map((a) => a.id)).toEqual(["m"]);
    expect(accountsForScope(all, "SLAVE").map((a) => a.id)).toEqual(["s1", "s2"]);
    expect(accountsForScope(all, "DASHBOARD").map((a) => a.id)).toEqual(["m", "s1", "s2"]);
  });

  it("labels the bound account 'alias · number', the number alone without alias, null when unbound", () => {
    expect(boundAccountLabel({ account: { accountNumber: "7001", alias: "Alpha", role: "SLAVE" } })).toBe("Alpha · 7001");
    expect(boundAccountLabel({ account: { accountNumber: "7001", alias: null, role: "SLAVE" } })).toBe("7001");
    expect(boundAccountLabel({ account: null })).toBeNull();
  });

  it("asks before an unbound Slave Terminal key with what it can reach", () => {
    expect(UNBOUND_SLAVE_KEY_QUESTION).toBe("An unbound Slave Terminal key can poll and report for every slave account of this organisation. Create it without an Account ID anyway?");
  });
});
