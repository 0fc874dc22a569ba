/** serialised: work on one account runs one piece at a time, in order; other accounts do not wait. */
import { describe, expect, it } from "vitest";
import type { AppContext } from "../../http/context.ts";
import { serialised } from "./service.ts";

const ctx = {} as AppContext;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("serialised", () => {
  it("runs a second piece of work on the same account only after the first ended, even when the first fails", async () => {
    const log: string[] = [];
    const first = serialised(ctx, "a", async () => {
      log.push("first start");
      await tick();
      log.push("first end");
      throw new Error("boom");
    });
    const second = serialised(ctx, "a", async () => {
      log.push("second");
      return 2;
    });
    const other = serialised(ctx, "b", async () => {
      log.push("other");
      return 3;
    });
    await expect(first).rejects.toThrow("boom");
    expect(await second).toBe(2);
    expect(await other).toBe(3);
    expect(log.indexOf("second")).toBeGreaterThan(log.indexOf("first end"));
    expect(log.indexOf("other")).toBeLessThan(log.indexOf("first end"));
  });
});
