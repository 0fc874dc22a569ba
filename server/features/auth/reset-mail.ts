/**
 * The password reset e-mail, sent through the server's SMTP (SMTP_URL, from ALERT_FROM) under the
 * same outbound address policy as alert e-mails (features/outbound/smtp-target.ts). The link's
 * origin is the configured public origin — the first ALLOWED_ORIGINS entry, else the address the
 * server itself listens on — never the Host header a client sent.
 */
import type { Config } from "../../config.ts";
import { sendSystemMail } from "../outbound/system-mail.ts";

/** Sends the reset link to `to`; resolves with null when sent, or with our short failure reason. */
export async function sendResetMail(
  config: Pick<Config, "smtpUrl" | "alertFrom" | "outbound">,
  to: string,
  link: string,
): Promise<string | null> {
  const r = await sendSystemMail(config, {
    to,
    subject: "Reset your CopyBridge password",
    text: [
      "Someone asked to reset the password of your CopyBridge account.",
      "",
      `Open this link within 30 minutes to choose a new password (it works once):`,
      link,
      "",
      "If it was not you, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  });
  return r.sent ? null : r.reason;
}
