/**
 * The slave's long-poll connection (POST /v1/slave/orders/poll, signed like every /v1 request).
 * Separate from BridgeClient because a poll is held up to 25 s and must be abortable on
 * shutdown: BridgeClient.poll() cannot be cancelled, so a stopping EA would keep the server's
 * graceful close waiting for the poll to run out.
 */
import { Agent, request } from "undici";
import type { SlavePollInput, SlavePollResponse } from "#contract";
import { BridgeHttpError, type BridgeCredentials } from "../bridge-client/client.ts";
import { signedHeaders } from "../bridge-client/sign.ts";

const PATH = "/v1/slave/orders/poll";

export class PollChannel {
  private readonly agent = new Agent({ connections: 1, keepAliveTimeout: 30_000, bodyTimeout: 60_000, headersTimeout: 60_000 });

  constructor(
    private readonly baseUrl: string,
    private readonly creds: BridgeCredentials,
  ) {}

  /** One long poll; rejects with BridgeHttpError on a non-2xx answer and with an AbortError when `signal` fires. */
  async poll(body: SlavePollInput, signal: AbortSignal): Promise<SlavePollResponse> {
    const text = JSON.stringify(body);
    const res = await request(this.baseUrl + PATH, {
      method: "POST",
      dispatcher: this.agent,
      signal,
      headers: { "content-type": "application/json", ...signedHeaders(this.creds.apiKey, this.creds.secret, "POST", PATH, text) },
      body: text,
    });
    const raw = await res.body.text();
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (res.statusCode < 200 || res.statusCode > 299) throw new BridgeHttpError(res.statusCode, parsed, PATH);
    return parsed as SlavePollResponse;
  }

  /** Drops the connection (an in-flight poll is cut off). */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
