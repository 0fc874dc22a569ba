import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowHosts, type OutboundPolicy } from "./address-policy.ts";
import { checkOutboundUrl, postJson, refusalOfUrl } from "./outbound-http.ts";
import { checkedSmtpOptions } from "./smtp-target.ts";

const SECRET = "internal-secret-7f3a";

describe("outbound HTTP", () => {
  let listener: NetServer;
  let listenerPort = 0;
  let connections = 0;
  let fake: Server;
  let fakePort = 0;
  const fakeRequests: string[] = [];

  beforeAll(async () => {
    // Not allow-listed: must never see a connection.
    listener = createNetServer((socket) => {
      connections++;
      socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${SECRET.length}\r\n\r\n${SECRET}`);
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    listenerPort = (listener.address() as AddressInfo).port;
    // Allow-listed: answers by path.
    fake = createHttpServer((req, res) => {
      fakeRequests.push(req.url ?? "");
      req.resume();
      if (req.url === "/fail") res.writeHead(500, { "content-type": "text/plain" }).end(SECRET);
      else if (req.url === "/redirect") res.writeHead(302, { location: `http://127.0.0.1:${listenerPort}/` }).end(SECRET);
      else if (req.url === "/hang") return; // never answers
      else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakePort = (fake.address() as AddressInfo).port;
  });
  afterAll(async () => {
    fake.closeAllConnections();
    await new Promise((r) => fake.close(r));
    await new Promise((r) => listener.close(r));
  });

  const policy = (): OutboundPolicy => ({ allowHosts: parseAllowHosts(`127.0.0.1:${fakePort}`), timeoutMs: 300 });

  it("refuses every non-public target without connecting", async () => {
    const targets = [
      `http://127.0.0.1:${listenerPort}/`,
      `https://127.0.0.1:${listenerPort}/`,
      `https://localhost:${listenerPort}/`,
      `https://LOCALHOST:${listenerPort}/`,
      `https://[::ffff:127.0.0.1]:${listenerPort}/`,
      `https://2130706433:${listenerPort}/`,
      `https://0x7f.1:${listenerPort}/`,
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/",
      "https://[::1]/",
      "file:///etc/passwd",
      "gopher://127.0.0.1:70/_x",
    ];
    for (const url of targets) {
      const result = await postJson(url, { hi: 1 }, policy(), "Test");
      expect(result.ok, url).toBe(false);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(await refusalOfUrl(url, policy()), url).not.toBeNull();
    }
    expect(connections).toBe(0);
  });

  it("says why with a reason of its own", async () => {
    expect(await postJson("file:///etc/passwd", {}, policy(), "Test")).toEqual({ ok: false, reason: "only https:// URLs are allowed" });
    expect(await postJson(`http://localhost:${listenerPort}/`, {}, policy(), "Test")).toEqual({ ok: false, reason: "only https:// URLs are allowed" });
    expect(await postJson(`https://localhost:${listenerPort}/`, {}, policy(), "Test")).toEqual({ ok: false, reason: "address not allowed" });
    expect(await postJson("https://169.254.169.254/", {}, policy(), "Test")).toEqual({ ok: false, reason: "address not allowed" });
    expect(connections).toBe(0);
  });

  it("delivers to an allow-listed host and never returns its reply", async () => {
    expect(checkOutboundUrl(`http://127.0.0.1:${fakePort}/ok`, policy()).ok).toBe(true);
    expect(await refusalOfUrl(`http://127.0.0.1:${fakePort}/ok`, policy())).toBeNull();
    expect(await postJson(`http://127.0.0.1:${fakePort}/ok`, { a: 1 }, policy(), "Test")).toEqual({ ok: true, status: 204 });
    expect(await postJson(`http://127.0.0.1:${fakePort}/fail`, { a: 1 }, policy(), "Test")).toEqual({ ok: false, reason: "Test answered 500" });
  });

  it("does not follow redirects", async () => {
    expect(await postJson(`http://127.0.0.1:${fakePort}/redirect`, {}, policy(), "Test")).toEqual({ ok: false, reason: "Test answered 302" });
    expect(connections).toBe(0);
  });

  it("gives up at the deadline", async () => {
    expect(await postJson(`http://127.0.0.1:${fakePort}/hang`, {}, policy(), "Test")).toEqual({ ok: false, reason: "timed out" });
  });

  it("the allow-list entry is for its port only", async () => {
    expect(await postJson(`http://127.0.0.1:${listenerPort}/`, {}, policy(), "Test")).toEqual({ ok: false, reason: "only https:// URLs are allowed" });
    expect(connections).toBe(0);
  });
});

describe("SMTP target", () => {
  const policy: OutboundPolicy = { allowHosts: parseAllowHosts("127.0.0.1:2525"), timeoutMs: 1000 };

  it("refuses a loopback, private or link-local SMTP host that is not allow-listed", async () => {
    for (const url of ["smtp://127.0.0.1:25", "smtp://localhost:2525", "smtps://10.0.0.1", "smtp://[::1]:25", "smtp://169.254.169.254:25"]) {
      await expect(checkedSmtpOptions(url, policy), url).rejects.toThrow("address not allowed");
    }
    await expect(checkedSmtpOptions("http://127.0.0.1:2525", policy)).rejects.toThrow("SMTP_URL must be smtp:// or smtps://");
  });

  it("connects to the checked address, keeping the name for TLS", async () => {
    const options = await checkedSmtpOptions("smtp://user:p%40ss@127.0.0.1:2525?proxy=http://10.0.0.1:3128", policy);
    expect(options).toMatchObject({ host: "127.0.0.1", port: 2525, secure: false, auth: { user: "user" }, tls: { servername: "127.0.0.1" } });
    expect(options.proxy).toBeUndefined();
  });
});
