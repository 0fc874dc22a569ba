import { describe, expect, it } from "vitest";
import { checkPermission } from "./permissions";

describe("checkPermission", () => {
  it("allows what the role holds, with no reason", () => {
    expect(checkPermission("trader", "copy.operate")).toEqual({ allowed: true, reason: null });
    expect(checkPermission("owner", "ownership")).toEqual({ allowed: true, reason: null });
  });

  it("refuses what the role lacks with the server's 403 sentence", () => {
    expect(checkPermission("viewer", "copy.operate")).toEqual({ allowed: false, reason: "Your role (Viewer) cannot operate copying" });
    expect(checkPermission("trader", "keys.manage")).toEqual({ allowed: false, reason: "Your role (Trader) cannot manage API keys" });
  });

  it("refuses everything while signed out", () => {
    expect(checkPermission(null, "view").allowed).toBe(false);
  });
});
