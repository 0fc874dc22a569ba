/**
 * Dashboard socket clients of the scale benchmarks: many `/ws` sockets in this one process, each
 * recording when a `new_signal` frame of a master ticket arrives. The same code listens to the
 * real server (session cookie) and to the bare `ws` broadcast baseline (no auth), so both are
 * measured alike. Frames are inspected by their bytes (scale-format.ts `ticketOf`), not parsed.
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { ticketOf, typeOf } from "./scale-format.ts";

export interface SocketGroup {
  /** ms, send → `new_signal` arrival, one per (socket, measured ticket). */
  latencies: number[];
  /** Per socket: master tickets whose `new_signal` it received. */
  seen: Set<string>[];
  /** Frames received on socket 0, by type: count and total bytes (the baseline copies the mix). */
  mix: Map<string, { count: number; bytes: number }>;
  /** new_signal frames of one ticket received twice on one socket. */
  duplicates: number;
  /** Resolves once every socket has the ticket's new_signal (false after `timeoutMs`). */
  allSeen(ticket: string, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface SocketGroupOptions {
  /** http(s) base URL; `/ws` is appended. */
  url: string;
  count: number;
  /** e.g. `cb_session=<token>`. */
  cookie?: string;
  /** Master ticket → performance.now() of the master's send (set by the caller before sending). */
  sentAt: Map<string, number>;
  /** Tickets up to this one are warm-up: counted in `seen`, not in `latencies`. */
  warmupTickets: number;
}

/**
 * Opens `count` sockets (50 at a time) and resolves once all are open and have said `connected`
 * (the server's first frame; the baseline sends one too).
 *
 * @throws Error when a socket's upgrade is refused or fails
 */
export async function openSocketGroup(o: SocketGroupOptions): Promise<SocketGroup> {
  const sockets: WebSocket[] = [];
  const seen: Set<string>[] = [];
  const latencies: number[] = [];
  const mix = new Map<string, { count: number; bytes: number }>();
  const waiting = new Map<string, { need: number; resolve: (ok: boolean) => void }>();
  const arrivals = new Map<string, number>(); // ticket → sockets that have it
  let duplicates = 0;

  const onFrame = (index: number, frame: Buffer) => {
    const now = performance.now();
    if (index === 0) {
      const type = typeOf(frame);
      const m = mix.get(type) ?? { count: 0, bytes: 0 };
      m.count++;
      m.bytes += frame.length;
      mix.set(type, m);
    }
    const ticket = ticketOf(frame, "new_signal");
    if (ticket === null) return;
    const mine = seen[index]!;
    if (mine.has(ticket)) {
      duplicates++;
      return;
    }
    mine.add(ticket);
    const start = o.sentAt.get(ticket);
    if (start !== undefined && Number(ticket) > o.warmupTickets) latencies.push(now - start);
    const n = (arrivals.get(ticket) ?? 0) + 1;
    arrivals.set(ticket, n);
    const w = waiting.get(ticket);
    if (w && n >= w.need) w.resolve(true);
  };

  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(o.url.replace(/^http/, "ws") + "/ws", { headers: o.cookie ? { cookie: o.cookie } : {}, skipUTF8Validation: true, perMessageDeflate: false });
      sockets[index] = ws;
      seen[index] = new Set();
      ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once("error", reject);
      let connected = false;
      ws.on("message", (data: Buffer) => {
        // The first frame is `connected` (the socket joined its channel): the socket is ready.
        if (!connected) {
          connected = true;
          return resolve();
        }
        onFrame(index, data);
      });
    });
  for (let i = 0; i < o.count; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, o.count - i) }, (_, k) => open(i + k)));
  }

  return {
    latencies,
    seen,
    mix,
    get duplicates() {
      return duplicates;
    },
    allSeen: (ticket, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if ((arrivals.get(ticket) ?? 0) >= sockets.length) return resolve(true);
        const timer = setTimeout(() => {
          waiting.delete(ticket);
          resolve(false);
        }, timeoutMs);
        waiting.set(ticket, {
          need: sockets.length,
          resolve: (ok) => {
            clearTimeout(timer);
            waiting.delete(ticket);
            resolve(ok);
          },
        });
      }),
    close: async () => {
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once("close", () => resolve());
              ws.terminate();
            }),
        ),
      );
    },
  };
}
