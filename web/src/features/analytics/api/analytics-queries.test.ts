import { describe, expect, it } from "vitest";
import { ANALYTICS_URLS, analyticsUrl, latencyHopsQuery, latencyQuery, performanceQuery, slippageQuery } from "./analytics-queries";

describe("analytics queries (§7: the range is part of the query identity)", () => {
  it("builds ?range= and &accountId=", () => {
    expect(analyticsUrl(ANALYTICS_URLS.performance, "24h")).toBe("/api/analytics/performance?range=24h");
    expect(analyticsUrl(ANALYTICS_URLS.latency, "7d", "a b")).toBe("/api/analytics/latency?range=7d&accountId=a+b");
  });

  it("keys by URL, range and account", () => {
    expect(performanceQuery("1h").queryKey).toEqual(["/api/analytics/performance", "1h"]);
    expect(latencyQuery("30d", "acc").queryKey).toEqual(["/api/analytics/latency", "30d", "acc"]);
    expect(slippageQuery("24h").queryKey).toEqual(["/api/analytics/slippage", "24h"]);
    expect(latencyHopsQuery("7d", "acc").queryKey).toEqual(["/api/analytics/latency/hops", "7d", "acc"]);
  });
});
