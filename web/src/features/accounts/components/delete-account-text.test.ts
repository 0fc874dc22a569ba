import { describe, expect, it } from "vitest";
import { deleteAccountConsequences, deleteAccountQuestion } from "./delete-account-text";

describe("delete account confirmation", () => {
  it("keeps the spec's question for each role", () => {
    expect(deleteAccountQuestion("SLAVE")).toBe("Are you sure you want to delete this slave account? This action cannot be undone.");
    expect(deleteAccountQuestion("MASTER")).toBe("Are you sure you want to delete this master account? This action cannot be undone.");
  });

  it.each([
    [
      { alias: "Bravo", accountNumber: "7002", role: "SLAVE" as const },
      2,
      "Deleting Bravo stops copying to it and deletes its 2 API keys. Its trades, executions and analytics stay readable in history.",
    ],
    [
      { alias: null, accountNumber: "7003", role: "SLAVE" as const },
      1,
      "Deleting Account 7003 stops copying to it and deletes its 1 API key. Its trades, executions and analytics stay readable in history.",
    ],
    [
      { alias: "Main", accountNumber: "5000", role: "MASTER" as const },
      0,
      "Deleting Main deletes its 0 API keys. Its trades, executions and analytics stay readable in history. Slaves stay; copying stops until a new master is added.",
    ],
    [
      { alias: "Main", accountNumber: "5000", role: "MASTER" as const },
      null,
      "Deleting Main deletes its API keys. Its trades, executions and analytics stay readable in history. Slaves stay; copying stops until a new master is added.",
    ],
  ])("%o with %s key(s)", (account, keys, text) => {
    expect(deleteAccountConsequences(account, keys)).toBe(text);
  });
});
