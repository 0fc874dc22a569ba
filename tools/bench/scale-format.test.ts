import { describe, expect, it } from "vitest";
import { openLoopSchedule, ratio, ticketOf, times, typeOf, verdictLine } from "./scale-format.ts";

describe("ratio", () => {
  it.each([
    [3, 2, 1.5],
    [1, 4, 0.25],
    [1, 0, NaN],
    [NaN, 2, NaN],
    [2, NaN, NaN],
    [2, -1, NaN],
  ])("%s ÷ %s = %s", (value, base, expected) => {
    expect(ratio(value, base)).toBe(expected);
  });

  it("writes ratios with two decimals", () => {
    expect(times(1.234)).toBe("1.23×");
    expect(times(NaN)).toBe("–");
  });
});

describe("verdictLine", () => {
  const check = (label: string, value: number, limit: number) => ({ label, value, limit, unit: "×" as const });

  it("is met when every check holds, naming them", () => {
    expect(verdictLine("Goal 8", [check("2 instances p99 ÷ 1", 1.4, 2), check("3 instances p99 ÷ 1", 2, 2)])).toBe(
      "Goal 8: met (2 instances p99 ÷ 1 1.40× ≤ 2.00×; 3 instances p99 ÷ 1 2.00× ≤ 2.00×)",
    );
  });

  it("names each failed check and how far over its limit it is", () => {
    expect(verdictLine("Goal 7", [check("p50 ÷ bare", 1.2, 1.5), check("p99 ÷ bare", 3, 1.5)])).toBe("Goal 7: NOT met by p99 ÷ bare 3.00× > 1.50× (2.00× the limit)");
  });

  it("fails a check that measured nothing and lists extra failures", () => {
    expect(verdictLine("Goal 7", [check("p99", NaN, 1.5)], ["3 frames missed"])).toBe("Goal 7: NOT met by p99: not measured; 3 frames missed");
    expect(verdictLine("Goal 8", [check("p99", 1, 2)], ["2 orders lost"])).toBe("Goal 8: NOT met by 2 orders lost");
  });

  it("names only the closest check when many hold", () => {
    const checks = [check("a", 1, 2), check("b", 1.9, 2), check("c", 0.5, 2), check("d", 1, 4)];
    expect(verdictLine("Growth", checks)).toBe("Growth: met (4 checks; closest: b 1.90× ≤ 2.00×)");
  });
});

describe("openLoopSchedule", () => {
  it("alternates OPEN and CLOSE of one ticket at the rate", () => {
    expect(openLoopSchedule(5, 50)).toEqual([
      { index: 0, dueMs: 0, ticket: 1, type: "OPEN" },
      { index: 1, dueMs: 20, ticket: 1, type: "CLOSE" },
      { index: 2, dueMs: 40, ticket: 2, type: "OPEN" },
      { index: 3, dueMs: 60, ticket: 2, type: "CLOSE" },
      { index: 4, dueMs: 80, ticket: 3, type: "OPEN" },
    ]);
    expect(openLoopSchedule(0, 50)).toEqual([]);
  });

  it("refuses a rate that is not positive", () => {
    expect(() => openLoopSchedule(2, 0)).toThrow(RangeError);
  });
});

describe("reading frames", () => {
  const frame = (v: unknown) => Buffer.from(JSON.stringify(v));

  it("finds the ticket of a frame of the asked type only", () => {
    const signal = frame({ type: "new_signal", data: { id: "x", masterTicket: "1042", symbol: "EURUSD" } });
    expect(ticketOf(signal, "new_signal")).toBe("1042");
    expect(ticketOf(signal, "signal_updated")).toBeNull();
    expect(ticketOf(frame({ type: "new_signal", data: { id: "x" } }), "new_signal")).toBeNull();
    expect(ticketOf(frame({ type: "execution_result", data: { masterTicket: "7" } }), "new_signal")).toBeNull();
    expect(ticketOf(Buffer.from("{}"), "new_signal")).toBeNull();
  });

  it("reads the type from the first bytes", () => {
    expect(typeOf(frame({ type: "execution_result", data: { pad: "x".repeat(100) } }))).toBe("execution_result");
    expect(typeOf(Buffer.from("not json"))).toBe("unknown");
  });
});
