/**
 * Baseline: a bare node:http server in its own process answering a small JSON POST, measured with
 * the same keep-alive client the copy benchmark uses — the floor any HTTP round trip on this
 * machine pays.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";

const SERVER = `
const http = require("node:http");
const s = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => { res.setHeader("content-type", "application/json"); res.end(JSON.stringify({ ok: true, n: body.length })); });
});
s.listen(0, "127.0.0.1", () => console.log("PORT " + s.address().port));
`;

/** Round-trip times (ms) of `n` sequential POSTs. */
export async function baselineRoundTrips(n: number): Promise<number[]> {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.once("exit", () => reject(new Error("baseline server exited")));
    });
    const agent = new Agent({ connections: 1 });
    const body = JSON.stringify({ id: "evt", order: { ticket: 1, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.08456 } });
    const times: number[] = [];
    for (let i = 0; i < n + 50; i++) {
      const t0 = performance.now();
      const res = await request(`http://127.0.0.1:${port}/`, { method: "POST", body, headers: { "content-type": "application/json" }, dispatcher: agent });
      await res.body.text();
      if (i >= 50) times.push(performance.now() - t0); // the first 50 warm up
    }
    await agent.close();
    return times;
  } finally {
    child.kill();
  }
}
