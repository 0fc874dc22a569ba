import { describe, expect, it } from "vitest";
import { routeTitle } from "./route-titles";

describe("routeTitle (WCAG 2.4.2: a title per route)", () => {
  it.each([
    ["/", "Overview · CopyBridge"],
    ["/master", "Master Account · CopyBridge"],
    ["/slaves", "Slave Accounts · CopyBridge"],
    ["/trades", "Live Trades · CopyBridge"],
    ["/trades/", "Live Trades · CopyBridge"],
    ["/mappings", "Symbol Mapping · CopyBridge"],
    ["/risk", "Risk Controls · CopyBridge"],
    ["/analytics", "Analytics · CopyBridge"],
    ["/alerts", "Alerts · CopyBridge"],
    ["/logs", "Audit Logs · CopyBridge"],
    ["/bridge", "Bridge Server · CopyBridge"],
    ["/settings", "Settings · CopyBridge"],
    ["/no/such/screen", "Page Not Found · CopyBridge"],
    ["/login", "Overview · CopyBridge"],
  ])("signed in, %s is titled %s", (path, title) => {
    expect(routeTitle(path, true)).toBe(title);
  });

  it.each([
    ["/login", "Sign in · CopyBridge"],
    ["/register", "Create account · CopyBridge"],
    ["/forgot-password", "Forgot password · CopyBridge"],
    ["/accept-invitation", "Accept invitation · CopyBridge"],
    ["/trades", "Sign in · CopyBridge"],
  ])("signed out, %s is titled %s", (path, title) => {
    expect(routeTitle(path, false)).toBe(title);
  });
});
