import { describe, expect, it } from "vitest";
import { grantableRoles, memberChangeDenied, removeMemberQuestion } from "./member-rules";

describe("member rules", () => {
  it("grants roles up to one's own, none without members.manage", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "trader", "viewer"]);
    expect(grantableRoles("admin")).toEqual(["admin", "trader", "viewer"]);
    expect(grantableRoles("trader")).toEqual([]);
    expect(grantableRoles("viewer")).toEqual([]);
  });

  it("needs the owner to change or remove an owner", () => {
    expect(memberChangeDenied("owner", { role: "owner" })).toBeNull();
    expect(memberChangeDenied("admin", { role: "trader" })).toBeNull();
    expect(memberChangeDenied("admin", { role: "owner" })).toBe("Your role (Admin) cannot manage ownership");
    expect(memberChangeDenied("trader", { role: "viewer" })).toBe("Your role (Trader) cannot manage members");
  });

  it("says what removing does", () => {
    expect(removeMemberQuestion("Ada Lovelace", "Acme")).toBe("Ada Lovelace loses access to Acme immediately; their sessions end.");
  });
});
