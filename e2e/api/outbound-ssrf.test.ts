/**
 * No server-side request forgery through alerts (issue 11, "Outgoing requests"): a local listener
 * on 127.0.0.1 that is NOT in OUTBOUND_HTTP_ALLOW_HOSTS counts every connection it receives.
 * Saving an alert whose webhook points at a refused address class is a 400 naming the field and
 * saves nothing; the test endpoint never connects to the listener (by IP literal, IPv4-mapped IPv6,
 * or a name resolving to it: `localhost`), neither for Discord, Telegram nor SMTP; and an
 * allow-listed fake's reply body never reaches the caller or the audit log.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { Api } from "../support/http.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const SECRET = "internal-metadata-secret-5b1e";
const REFUSED = "Webhook URL must be https:// and reach a public address";

describe.each(databaseKinds())("outgoing requests on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer | undefined;
  let t: SignedIn;
  let listener: NetServer;
  let lp = 0;
  let connections = 0;
  let fake: Server;
  let fakeUrl = "";

  const allowFake = () => new URL(fakeUrl).host;
  const env = (allow: string) => ({
    ...db.env,
    JOBS_DISABLED: "true",
    OUTBOUND_HTTP_ALLOW_HOSTS: allow,
    TELEGRAM_API_URL: `https://localhost:${lp}`,
    SMTP_URL: `smtp://localhost:${lp}`,
  });
  /** Restarts the server on the same database with another allow-list; the session stays valid. */
  async function restart(allow: string): Promise<void> {
    await server!.stop();
    server = await startServer(env(allow));
    t = { ...t, api: new Api(server.url, t.api.token) };
  }
  const configs = async () => ((await t.api.get("/api/alerts/configs")).body as { id: string; name: string }[]);
  const discord = (name: string, webhookUrl: string) => t.api.post("/api/alerts/configs", { name, type: "copy_failure", channels: { discord: { webhookUrl } } });

  beforeAll(async () => {
    listener = createNetServer((socket) => {
      connections++;
      socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${SECRET.length}\r\n\r\n${SECRET}`);
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    lp = (listener.address() as AddressInfo).port;
    fake = createHttpServer((req, res) => {
      req.resume();
      if (req.url === "/fail") res.writeHead(500, { "content-type": "text/plain" }).end(SECRET);
      else if (req.url === "/redirect") res.writeHead(302, { location: `http://127.0.0.1:${lp}/` }).end(SECRET);
      else res.writeHead(200, { "content-type": "text/plain" }).end(SECRET);
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    db = await createTestDatabase(kind);
    server = await startServer(env(allowFake()));
    t = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    fake?.closeAllConnections();
    await new Promise((r) => fake?.close(r));
    await new Promise((r) => listener?.close(r));
  });

  it("refuses to save a webhook URL of a refused address class or scheme, naming the field, and saves nothing", async () => {
    const refused = [
      `http://127.0.0.1:${lp}/webhooks/1`,
      `https://127.0.0.1:${lp}/webhooks/1`,
      `https://localhost:${lp}/webhooks/1`,
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/",
      "https://192.168.1.10/",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://224.0.0.1/",
      "https://[::1]/",
      `https://[::ffff:127.0.0.1]:${lp}/`,
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://2130706433/",
      `http://${allowFake().replace("127.0.0.1", "localhost")}/webhooks/1`,
    ];
    for (const url of refused) {
      const res = await discord("Probe", url);
      expect(res.status, url).toBe(400);
      expect(res.body.issues, url).toEqual([{ path: "channels.discord.webhookUrl", message: REFUSED }]);
    }
    // Other schemes: refused by the contract or by the same rule, always on that field.
    for (const url of ["file:///etc/passwd", `gopher://127.0.0.1:${lp}/_stats`, "ftp://example.com/x"]) {
      const res = await discord("Probe", url);
      expect(res.status, url).toBe(400);
      expect((res.body.issues as { path: string }[]).map((i) => i.path), url).toContain("channels.discord.webhookUrl");
    }
    expect(await configs()).toEqual([]);

    // An update is checked the same way and leaves the configuration as it was.
    const ok = await discord("Desk", `${fakeUrl}/ok`);
    expect(ok.status).toBe(201);
    const put = await t.api.put(`/api/alerts/configs/${ok.body.id}`, { channels: { discord: { webhookUrl: "https://169.254.169.254/latest/meta-data/" } } });
    expect(put.status).toBe(400);
    expect(put.body.issues).toEqual([{ path: "channels.discord.webhookUrl", message: REFUSED }]);
    expect((await configs()).find((c) => c.id === ok.body.id)).toMatchObject({ channels: { discord: { webhookUrl: `${fakeUrl}/ok` } } });
    expect(connections).toBe(0);
    expect((await t.api.delete(`/api/alerts/configs/${ok.body.id}`)).status).toBe(200);
  });

  it("never hands the caller or the audit log the remote's reply, and follows no redirect", async () => {
    const results = [];
    for (const path of ["/ok", "/fail", "/redirect"]) {
      const created = await discord(`Hook ${path}`, `${fakeUrl}${path}`);
      expect(created.status).toBe(201);
      const res = await t.api.post(`/api/alerts/configs/${created.body.id}/test`);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      results.push(res.body);
    }
    expect(results).toEqual([
      { ok: true, results: [{ channel: "discord", ok: true, error: null }] },
      { ok: false, results: [{ channel: "discord", ok: false, error: "Discord answered 500" }] },
      { ok: false, results: [{ channel: "discord", ok: false, error: "Discord answered 302" }] },
    ]);
    const audit = await t.api.get("/api/audit-logs?limit=500");
    expect((audit.body as { message: string }[]).map((l) => l.message)).toContain('Test of alert "Hook /fail": discord failed (Discord answered 500)');
    expect(JSON.stringify(audit.body)).not.toContain(SECRET);
    expect(connections).toBe(0);
    for (const c of await configs()) await t.api.delete(`/api/alerts/configs/${c.id}`);
  });

  it("the test endpoint never connects to a non-allow-listed local address, whatever the URL saved earlier", async () => {
    // Saved while the operator allow-listed the listener (the only way past the save check) ...
    await restart(`${allowFake()},127.0.0.1:${lp},localhost:${lp}`);
    const stale = [`http://127.0.0.1:${lp}/a`, `https://127.0.0.1:${lp}/b`, `https://localhost:${lp}/c`, `http://localhost:${lp}/d`];
    const ids: string[] = [];
    for (const url of stale) {
      const res = await discord(`Stale ${url}`, url);
      expect(res.status, url).toBe(201);
      ids.push(res.body.id as string);
    }
    const all = await t.api.post("/api/alerts/configs", {
      name: "Every channel",
      type: "copy_failure",
      channels: { telegram: { chatId: "1", botToken: "2:x" }, email: { recipients: ["ops@example.com"] } },
    });
    expect(all.status).toBe(201);
    expect(connections).toBe(0); // saving never connects

    // ... then the allow-list no longer names it: nothing may reach it.
    await restart(allowFake());
    const errors: (string | null)[] = [];
    for (const id of ids) {
      const res = await t.api.post(`/api/alerts/configs/${id}/test`);
      expect(res.status).toBe(200);
      errors.push((res.body.results as { error: string | null }[])[0]!.error);
    }
    expect(errors).toEqual(["only https:// URLs are allowed", "address not allowed", "address not allowed", "only https:// URLs are allowed"]);
    const every = await t.api.post(`/api/alerts/configs/${all.body.id}/test`);
    expect(every.body).toEqual({
      ok: false,
      results: [
        { channel: "telegram", ok: false, error: "address not allowed" },
        { channel: "email", ok: false, error: "address not allowed" },
      ],
    });
    expect(connections).toBe(0);
  });
});
