/** The invitation link's origin (configuration, never a request's Host) and the e-mail's text. */
import { describe, expect, it } from "vitest";
import { invitationMessage, invitationUrl, publicOrigin } from "./invitation-email.ts";

describe("invitation link", () => {
  it("takes the first configured origin, else the server's own listening address", () => {
    expect(publicOrigin({ allowedOrigins: ["https://copy.example.com", "https://b.example.com"], host: "0.0.0.0", port: 3000 }, 41234)).toBe("https://copy.example.com");
    expect(publicOrigin({ allowedOrigins: [], host: "127.0.0.1", port: 0 }, 41234)).toBe("http://127.0.0.1:41234");
    expect(publicOrigin({ allowedOrigins: [], host: "0.0.0.0", port: 3000 })).toBe("http://localhost:3000");
  });

  it("points at the accept page with the token encoded", () => {
    expect(invitationUrl("https://copy.example.com", "ab-_c")).toBe("https://copy.example.com/accept-invitation?token=ab-_c");
  });

  it("names the organisation, the inviter, the role and the link", () => {
    const m = invitationMessage({
      to: "x@example.com",
      tenantName: "Desk One",
      inviterName: "Olivia Owner",
      role: "admin",
      url: "https://copy.example.com/accept-invitation?token=t",
      expiresAt: new Date("2030-01-02T03:04:00Z"),
    });
    expect(m.subject).toBe("Olivia Owner invited you to Desk One on CopyBridge");
    expect(m.text).toContain("Olivia Owner invited you to join Desk One on CopyBridge as Admin.");
    expect(m.text).toContain("https://copy.example.com/accept-invitation?token=t");
    expect(m.text).toContain("2030-01-02 03:04 UTC");
  });
});
