/**
 * Save-time checks of an alert's channels that need the server's configuration: the Discord
 * webhook URL must be https:// and reach a public address (or a host in
 * OUTBOUND_HTTP_ALLOW_HOSTS) — issue 11, no server-side request forgery through alerts.
 */
import type { AlertChannels } from "#contract";
import type { Config } from "../../config.ts";
import { invalidField } from "../../http/errors.ts";
import { refusalOfUrl } from "../outbound/outbound-http.ts";

export const WEBHOOK_URL_REFUSED = "Webhook URL must be https:// and reach a public address";

/** Throws a 400 naming `channels.discord.webhookUrl` when the server would refuse to call it. */
export async function assertChannelsReachable(config: Pick<Config, "outbound">, channels: AlertChannels | undefined): Promise<void> {
  const url = channels?.discord?.webhookUrl;
  if (url === undefined) return;
  if ((await refusalOfUrl(url, config.outbound)) !== null) throw invalidField("channels.discord.webhookUrl", WEBHOOK_URL_REFUSED);
}
