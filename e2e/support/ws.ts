/** A test WebSocket client that records every `{type, data}` message it receives. */
import WebSocket from "ws";

export interface RecordingSocket {
  messages: { type: string; data: any }[];
  /** Resolves with the first recorded message matching `pred` (waiting up to `timeoutMs`). */
  waitFor(pred: (m: { type: string; data: any }) => boolean, timeoutMs?: number): Promise<{ type: string; data: any }>;
  send(msg: unknown): void;
  close(): void;
  /** Resolves with the close code when the server (or we) close the socket. */
  closed: Promise<number>;
}

export function openSocket(url: string, opts: { token?: string; cookie?: string } = {}): Promise<RecordingSocket> {
  const wsUrl = url.replace(/^http/, "ws") + "/ws" + (opts.token ? `?token=${encodeURIComponent(opts.token)}` : "");
  const ws = new WebSocket(wsUrl, { headers: opts.cookie ? { cookie: opts.cookie } : {} });
  const messages: { type: string; data: any }[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  ws.on("message", (raw) => {
    messages.push(JSON.parse(String(raw)));
    for (const w of waiters) w();
  });
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        messages,
        closed,
        send: (msg) => ws.send(JSON.stringify(msg)),
        close: () => ws.close(),
        waitFor: (pred, timeoutMs = 5000) =>
          new Promise((res, rej) => {
            const check = () => {
              const found = messages.find(pred);
              if (found) {
                waiters.delete(check);
                clearTimeout(timer);
                res(found);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rej(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => m.type))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
      }),
    );
  });
}
