import { describe, expect, it } from "vitest";
import { DomainEvents } from "./domain-events.ts";

describe("DomainEvents", () => {
  it("calls listeners without letting their failures escape", async () => {
    const errors: unknown[] = [];
    const bus = new DomainEvents((err) => errors.push(err));
    const seen: string[] = [];
    bus.on("executions", (e) => {
      seen.push(e.tenantId);
    });
    bus.on("executions", () => {
      throw new Error("sync boom");
    });
    bus.on("executions", async () => {
      throw new Error("async boom");
    });
    expect(() => bus.emit("executions", { tenantId: "t1", rows: [] })).not.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["t1"]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["sync boom", "async boom"]);
  });
});
