import { describe, expect, it } from "vitest";
import { loginPathFor, safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it.each([
    ["/analytics", "/analytics"],
    ["/trades?tab=history", "/trades?tab=history"],
    [null, "/"],
    ["", "/"],
    ["analytics", "/"],
    ["//evil.example.com/x", "/"],
    ["/\\evil.example.com", "/"],
    ["https://evil.example.com/", "/"],
    ["javascript:alert(1)", "/"],
    ["/a\nb", "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });
});

describe("loginPathFor", () => {
  it("carries the path and its query in next, and nothing for /", () => {
    expect(loginPathFor("/analytics?range=7d")).toBe("/login?next=%2Fanalytics%3Frange%3D7d");
    expect(loginPathFor("/")).toBe("/login");
  });
});
