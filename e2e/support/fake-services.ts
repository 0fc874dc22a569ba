/**
 * Stand-ins for the outside world of alert delivery, on loopback: an HTTP server answering like
 * the Telegram Bot API and Discord webhooks (recording every request, able to fail on purpose),
 * and a real SMTP server (smtp-server) recording every message.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface RecordedRequest {
  path: string;
  body: any;
  at: number;
}

export interface FakeHttp {
  url: string;
  requests: RecordedRequest[];
  /** Makes the next `n` requests to `path` answer 500. */
  failNext(path: string, n: number): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => resolve(data));
  });

/** Telegram: POST /bot<token>/sendMessage → {ok:true}. Discord: POST /webhooks/* → 204. */
export async function startFakeHttp(): Promise<FakeHttp> {
  const requests: RecordedRequest[] = [];
  const failures = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const path = req.url ?? "/";
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep text
      }
      requests.push({ path, body, at: Date.now() });
      const left = failures.get(path) ?? 0;
      if (left > 0) {
        failures.set(path, left - 1);
        res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded");
        return;
      }
      if (path.includes("/sendMessage")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, result: { message_id: requests.length } }));
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (path, n) => failures.set(path, n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface RecordedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface FakeSmtp {
  url: string;
  messages: RecordedMail[];
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: RecordedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Polls `check` until it returns truthy (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 8000, what = "condition"): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
