import { describe, expect, it } from "vitest";
import { nextSlaveStatus } from "./slave-mutations";

describe("nextSlaveStatus (§4 Disable/Enable)", () => {
  it("disables an active account by pausing it", () => {
    expect(nextSlaveStatus("active")).toBe("paused");
  });
  it("enables any other status", () => {
    for (const status of ["paused", "error", "inactive", "syncing"]) expect(nextSlaveStatus(status)).toBe("active");
  });
});
