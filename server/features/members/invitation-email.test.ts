/** The invitation link and the e-mail's text (the link's origin: outbound/system-mail.test.ts). */
import { describe, expect, it } from "vitest";
import { invitationMessage, invitationUrl } from "./invitation-email.ts";

describe("invitation link", () => {
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
