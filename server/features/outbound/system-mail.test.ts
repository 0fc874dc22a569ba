/** The links' origin in system e-mails: configuration, never a request's Host header. */
import { describe, expect, it } from "vitest";
import { publicOrigin, sendSystemMail } from "./system-mail.ts";

describe("publicOrigin", () => {
  it("is the first configured ALLOWED_ORIGINS entry", () => {
    expect(publicOrigin({ allowedOrigins: ["https://copy.example.com", "https://b.example.com"], host: "0.0.0.0", port: 3000 }, 41234)).toBe("https://copy.example.com");
  });
  it("else the address the server listens on; a wildcard host reads as localhost, IPv6 in brackets", () => {
    expect(publicOrigin({ allowedOrigins: [], host: "127.0.0.1", port: 0 }, 41234)).toBe("http://127.0.0.1:41234");
    expect(publicOrigin({ allowedOrigins: [], host: "0.0.0.0", port: 3000 })).toBe("http://localhost:3000");
    expect(publicOrigin({ allowedOrigins: [], host: "::1", port: 80 })).toBe("http://[::1]:80");
  });
});

describe("sendSystemMail", () => {
  it("says SMTP is not set instead of throwing", async () => {
    const r = await sendSystemMail({ smtpUrl: undefined, alertFrom: "x@example.com", outbound: {} as never }, { to: "a@example.com", subject: "s", text: "t" });
    expect(r).toEqual({ sent: false, reason: "SMTP_URL is not set" });
  });
});
