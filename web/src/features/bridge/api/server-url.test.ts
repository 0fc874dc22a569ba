import { describe, expect, it } from "vitest";
import { serverUrlWarnings } from "./server-url";

describe("serverUrlWarnings", () => {
  it("has nothing to say about an https address on the standard port", () => {
    expect(serverUrlWarnings("https://copy.example.com")).toEqual([]);
  });

  it("warns about plain http, a non-standard port and a loopback host", () => {
    const warnings = serverUrlWarnings("http://127.0.0.1:3000");
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^HTTPS is required in production/);
    expect(warnings[1]).toContain("port 3000");
    expect(warnings[2]).toMatch(/local address/);
    expect(serverUrlWarnings("http://localhost")).toHaveLength(2);
    expect(serverUrlWarnings("http://[::1]:8080")).toHaveLength(3);
  });

  it("warns only about the port of an https address on another port", () => {
    expect(serverUrlWarnings("https://copy.example.com:8443")).toEqual([expect.stringContaining("port 8443")]);
  });

  it("returns nothing for an unparsable origin", () => {
    expect(serverUrlWarnings("null")).toEqual([]);
  });
});
