/**
 * Bridge → Testing modes in a real browser (issue 13): "Test Signal Open" with a MASTER key used
 * to queue real orders on every live slave without a word. Now the tab previews by default
 * (POST /api/copy/preview: a per-slave table, nothing queued), and Live mode asks for a
 * confirmation naming the slaves that would trade; Cancel sends nothing, Continue sends the signed
 * request with the preview's token and shows the answer.
 */
import { describe, expect, it } from "vitest";
import { executionListSchema, signalSchema } from "#contract";
import { createKey } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { textOf } from "./support/ui.ts";

describe.each(databaseKinds())("Bridge Testing modes on %s", (kind) => {
  const suite = browserSuite(kind, "bridge-testing-modes");

  it("previews by default and queues nothing; Live asks first, Cancel sends nothing, Continue sends", async () => {
    const t = await signUp(suite.app.url);
    expect((await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER" })).status).toBe(201);
    const ids: string[] = [];
    for (const [n, alias] of [["7001", "Alpha"], ["7002", "Bravo"], ["7003", "Charlie"]] as const) {
      const res = await t.api.post("/api/accounts", { accountNumber: n, alias, broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    const [alpha, bravo, charlie] = ids as [string, string, string];
    // Alpha and Bravo copy 0.10 lots; Charlie copies sells only (skipped for the sample's BUY).
    for (const id of [alpha, bravo]) expect((await t.api.put(`/api/copy-settings/${id}`, { sizing: { mode: "fixed", fixedVolume: "0.10" } })).status).toBe(200);
    expect((await t.api.put(`/api/copy-settings/${charlie}`, { sizing: { mode: "multiplier" }, allowedSides: "sell" })).status).toBe(200);
    const key = await createKey(t.api, "MASTER");
    const executions = async () => executionListSchema.parse((await t.api.get("/api/executions")).body);
    const signals = async () => signalSchema.array().parse((await t.api.get("/api/signals")).body);

    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/bridge");
    await page.getByTestId("tab-testing").click();
    await page.getByTestId("input-test-key").fill(key.apiKey);
    await page.getByTestId("input-test-secret").fill(key.secret);

    // Default: Preview, labelled.
    expect(await page.getByTestId("radio-test-mode-preview").getAttribute("aria-checked")).toBe("true");
    expect(await page.getByTestId("radio-test-mode-live").getAttribute("aria-checked")).toBe("false");
    expect(await textOf(page.getByTestId("text-test-mode"))).toBe("Preview — nothing is sent to any terminal");

    const beforePreview = calls.mark();
    await page.getByTestId("button-test-open").click();
    const table = page.getByTestId("table-preview");
    await table.waitFor();
    expect(await textOf(page.getByTestId(`text-preview-verdict-${alpha}`))).toBe("queued");
    expect(await textOf(page.getByTestId(`text-preview-volume-${alpha}`))).toBe("0.10");
    expect(await textOf(page.getByTestId(`text-preview-volume-${bravo}`))).toBe("0.10");
    expect(await textOf(page.getByTestId(`text-preview-verdict-${charlie}`))).toBe("skipped");
    expect(await textOf(page.getByTestId(`text-preview-reason-${charlie}`))).toBe("Only SELL trades are copied");
    expect(await textOf(page.getByTestId(`row-preview-${alpha}`))).toContain("Alpha");
    // Only the preview was asked; nothing reached /v1, nothing is queued.
    expect(calls.since(beforePreview).map((c) => `${c.method} ${c.path}`)).toEqual(["POST /api/copy/preview"]);
    expect(await executions()).toEqual([]);
    expect(await signals()).toEqual([]);
    expect(await textOf(page.getByTestId("text-test-status"))).toBe("No request sent yet.");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `bridge-testing-${kind}-preview`);

    // Live: labelled, and a signal button asks first.
    await page.getByTestId("radio-test-mode-live").click();
    expect(await textOf(page.getByTestId("text-test-mode"))).toBe("Live — sends a real signal");
    const dialog = page.getByTestId("dialog-confirm-live-signal");
    const beforeCancel = calls.mark();
    await page.getByTestId("button-test-open").click();
    await dialog.waitFor();
    expect(await textOf(dialog.getByTestId("text-live-signal-summary"))).toBe("This sends a real signal: 2 live slave accounts will open BUY 0.10 EURUSD. Continue?");
    // The theme toggle is behind the modal: one screenshot, in the current theme.
    await page.screenshot({ path: `screenshots/bridge-testing-${kind}-live-confirm.png` });
    const listed = await textOf(dialog.getByTestId("list-live-signal-slaves"));
    expect(listed).toContain("Alpha");
    expect(listed).toContain("Bravo");
    expect(listed).not.toContain("Charlie");
    await dialog.getByTestId("button-cancel-live-signal").click();
    await dialog.waitFor({ state: "detached" });
    expect(calls.since(beforeCancel).filter((c) => c.path.startsWith("/v1/"))).toEqual([]);
    expect(await executions()).toEqual([]);

    // Continue: the signed request goes out with the preview's token; the answer shows.
    const beforeSend = calls.mark();
    const confirmHeader = page.waitForRequest((r) => r.url().endsWith("/v1/master/signal/open"));
    await page.getByTestId("button-test-open").click();
    await dialog.waitFor();
    await dialog.getByTestId("button-confirm-live-signal").click();
    const sent = await confirmHeader;
    expect(sent.headers()["x-cb-confirm"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const status = page.getByTestId("text-test-status");
    await expect.poll(() => status.getAttribute("data-status")).toBe("201");
    expect(await textOf(page.getByTestId("text-test-response"))).toContain('"queued": 2');
    expect(calls.of("POST", "/v1/master/signal/open", beforeSend)).toHaveLength(1);
    const queued = (await executions()).filter((e) => e.status === "pending");
    expect(queued.map((e) => [e.slaveAccountId, e.volume]).sort()).toEqual([[alpha, "0.10"], [bravo, "0.10"]].sort());
    expect(await signals()).toHaveLength(1);
    await settle(page, diagnostics);
    diagnostics.assertClean();
  });
});
