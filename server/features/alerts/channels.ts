/**
 * Real delivery of alert messages (spec §9 channels): Telegram through the Bot API `sendMessage`,
 * Discord through its webhook URL, email through SMTP (nodemailer, SMTP_URL / ALERT_FROM).
 * Every connection goes through features/outbound (https only, public addresses only unless
 * allow-listed, no redirects, deadline). Each send throws an Error whose message is a short
 * reason of our own ("Discord answered 404", "address not allowed", "timed out") — never the
 * remote's reply, which is neither read nor stored; the caller retries with backoff. Bodies are
 * capped to each service's limit.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { AlertChannel, AlertChannels } from "#contract";
import type { Config } from "../../config.ts";
import { postJson } from "../outbound/outbound-http.ts";
import { checkedSmtpOptions, smtpReasonOf } from "../outbound/smtp-target.ts";

export interface AlertMessage {
  subject: string;
  text: string;
}

/** A failed delivery; `message` is our own short reason, safe to show, store and audit. */
export class AlertDeliveryError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "AlertDeliveryError";
  }
}

/** Our reason for any error thrown while sending (anything unexpected gets a generic text). */
export function deliveryReason(err: unknown): string {
  return err instanceof AlertDeliveryError ? err.message : "delivery failed";
}

export class AlertChannelSender {
  constructor(private readonly config: Pick<Config, "telegramApiUrl" | "smtpUrl" | "alertFrom" | "outbound">) {}

  private async post(url: string, body: unknown, label: string): Promise<void> {
    const result = await postJson(url, body, this.config.outbound, label);
    if (!result.ok) throw new AlertDeliveryError(result.reason);
  }

  /** Sends one message through one configured channel; throws on failure. */
  async send(channel: AlertChannel, channels: AlertChannels, message: AlertMessage): Promise<void> {
    switch (channel) {
      case "telegram": {
        const t = channels.telegram;
        if (!t) throw new AlertDeliveryError("Telegram is not configured for this alert");
        // The Bot API answers a refusal ({ok:false}) with a 4xx status, so the status is enough.
        await this.post(
          `${this.config.telegramApiUrl}/bot${encodeURIComponent(t.botToken)}/sendMessage`,
          { chat_id: t.chatId, text: `${message.subject}\n\n${message.text}`.slice(0, 4096), disable_web_page_preview: true },
          "Telegram",
        );
        return;
      }
      case "discord": {
        const d = channels.discord;
        if (!d) throw new AlertDeliveryError("Discord is not configured for this alert");
        await this.post(d.webhookUrl, { content: `**${message.subject}**\n${message.text}`.slice(0, 2000) }, "Discord");
        return;
      }
      case "email": {
        const e = channels.email;
        if (!e || e.recipients.length === 0) throw new AlertDeliveryError("Email is not configured for this alert");
        if (!this.config.smtpUrl) throw new AlertDeliveryError("Email delivery needs SMTP_URL to be set on the server");
        await this.sendMail(this.config.smtpUrl, { from: this.config.alertFrom, to: e.recipients, subject: message.subject, text: message.text });
        return;
      }
    }
  }

  /** One SMTP connection per message, to the address checked just before (no re-resolution). */
  private async sendMail(smtpUrl: string, mail: { from: string; to: string[]; subject: string; text: string }): Promise<void> {
    let mailer: Transporter | null = null;
    try {
      mailer = nodemailer.createTransport(await checkedSmtpOptions(smtpUrl, this.config.outbound));
      await mailer.sendMail(mail);
    } catch (err) {
      throw new AlertDeliveryError(smtpReasonOf(err));
    } finally {
      mailer?.close();
    }
  }

  /** Nothing is held between sends (kept so callers can release the sender on shutdown). */
  close(): void {}
}

/** The channels a configuration has set up, in a fixed order. */
export function configuredChannels(channels: AlertChannels): AlertChannel[] {
  return (["telegram", "discord", "email"] as const).filter((c) => channels[c] !== undefined);
}
