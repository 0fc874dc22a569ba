/**
 * Baseline of goal 7 (dashboard fan-out): a bare `ws` broadcast server in its own process. On an
 * HTTP POST `{ticket, open, first, others, otherBytes}` it sends `1 + others` text frames to every
 * connected socket (the first a `new_signal` for an OPEN, else a `signal_updated`, then
 * `execution_result` frames, padded to the sizes the real server's frames had), then answers 201.
 * No database, no auth, no coalescing across events: the floor of a broadcast on this machine.
 * Measured with the same open-loop sender and the same socket clients as the server.
 * An event's frames go to a socket in one write (its TCP socket corked around the `send`s). Until
 * 2026-12-02 each frame was its own write: 500 sockets × 5 frames × 50 events/s is 125,000 writes a
 * second, and on a 2-core machine that baseline fell behind its own open loop (delivery p50
 * 1,541 ms), so the goal's ratios against it said nothing. The server writes each socket once per
 * flush; an event's frames in one write each is the floor it is held to.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { startCpuWindow, type CpuShares } from "./cpu.ts";
import { openLoopSchedule } from "./scale-format.ts";
import { runOpenLoop, type LoadResult } from "./scale-load.ts";
import { openSocketGroup, type SocketGroup } from "./scale-sockets.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The server, run with `node -e` from the repository root (so `ws` resolves from node_modules). */
const SERVER = `
const http = require("node:http");
const { WebSocketServer } = require("ws");
// The same frames as scale-format.ts paddedMessage (the clients read both alike).
const pad = (type, masterTicket, bytes) => {
  const bare = JSON.stringify({ type, data: { masterTicket, pad: "" } });
  return JSON.stringify({ type, data: { masterTicket, pad: "x".repeat(Math.max(0, bytes - bare.length)) } });
};
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const m = JSON.parse(body);
    const frames = [pad(m.open ? "new_signal" : "signal_updated", String(m.ticket), m.first)];
    for (let i = 0; i < m.others; i++) frames.push(pad("execution_result", String(m.ticket), m.otherBytes));
    // One write per socket per event: its frames corked together (ws's sender writes each send).
    for (const ws of wss.clients) {
      if (ws.readyState !== 1) continue;
      ws._socket.cork();
      for (const text of frames) ws.send(text);
      ws._socket.uncork();
    }
    res.statusCode = 201;
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
});
const wss = new WebSocketServer({ server, path: "/ws" });
wss.on("connection", (ws) => ws.send(JSON.stringify({ type: "connected", data: {} })));
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port));
`;

/** The frames one master event causes on each socket (taken from the server's run). */
export interface FrameMix {
  /** Bytes of the event's first frame (new_signal / signal_updated). */
  firstBytes: number;
  /** Further frames per event (execution_result: one per slave order and report). */
  others: number;
  otherBytes: number;
}

export interface WsBaselineRun extends LoadResult {
  sockets: number;
  events: number;
  /** ms, POST sent → new_signal on a socket, warm-up tickets excluded. */
  latencies: number[];
  /** (socket, OPEN) pairs that never arrived. */
  missed: number;
  /** CPU while the POSTs were sent: this process (clients) and the broadcast process. */
  cpu: CpuShares;
}

/**
 * Runs the bare broadcast with `sockets` clients and `events` POSTs at `ratePerS`.
 *
 * @throws Error when the baseline process does not start
 */
export async function runWsBaseline(opts: { sockets: number; events: number; ratePerS: number; warmupTickets: number; mix: FrameMix }): Promise<WsBaselineRun> {
  const child = spawn(process.execPath, ["-e", SERVER], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let group: SocketGroup | undefined;
  const agent = new Agent({ connections: 8 });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.once("exit", () => reject(new Error("ws baseline server exited")));
    });
    const url = `http://127.0.0.1:${port}`;
    const sentAt = new Map<string, number>();
    group = await openSocketGroup({ url, count: opts.sockets, sentAt, warmupTickets: opts.warmupTickets });
    const schedule = openLoopSchedule(opts.events, opts.ratePerS);
    const cpuWindow = startCpuWindow(child.pid!, false);
    const load = await runOpenLoop(
      schedule,
      async (e) => {
        const body = JSON.stringify({ ticket: e.ticket, open: e.type === "OPEN", first: opts.mix.firstBytes, others: opts.mix.others, otherBytes: opts.mix.otherBytes });
        const res = await request(`${url}/`, { method: "POST", body, headers: { "content-type": "application/json" }, dispatcher: agent });
        await res.body.text();
        return res.statusCode;
      },
      { sentAt, warmupTickets: opts.warmupTickets },
    );
    const cpu = cpuWindow.stop();
    await Promise.all(load.acceptedOpens.map((ticket) => group!.allSeen(String(ticket), 10_000)));
    const missed = load.acceptedOpens.reduce((n, ticket) => n + group!.seen.filter((s) => !s.has(String(ticket))).length, 0);
    return { ...load, sockets: opts.sockets, events: opts.events, latencies: group.latencies, missed, cpu };
  } finally {
    await group?.close();
    await agent.close();
    child.kill();
  }
}
