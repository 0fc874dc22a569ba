/**
 * Getting the EAs to users (issue 10) in a real browser against the real server: the master
 * card's waiting text links to Bridge Server → "Connect a terminal", which offers the EA zip,
 * the five steps and this server's URL; `/bridge?tab=connect` deep-links to it; step 2 leads to
 * the API Keys tab.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { pathOf, screenshot, settle } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { textOf } from "./support/ui.ts";

const STEP_TITLES = [
  "Add the account",
  "Create an API key for the terminal",
  "Copy the Expert Advisors into the terminal",
  "Allow this server's URL",
  "Attach the EA to a chart",
];

describe.each(databaseKinds())("Connect a terminal on %s", (kind) => {
  const suite = browserSuite(kind, "connect-terminal");

  it("leads from the master card's waiting text to the steps, the server URL and the EA download", async () => {
    const t = await signUp(suite.app.url);
    const master = await t.api.post("/api/accounts", { accountNumber: "50007777", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" });
    expect(master.status).toBe(201);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);

    // §/master: the spec's waiting text stays as it is, followed by the link.
    await page.goto("/master");
    await page.getByTestId("card-master").waitFor();
    expect(await textOf(page.getByTestId("text-waiting-ea"))).toBe("Waiting for Master EA connection...");
    const howTo = page.getByRole("link", { name: "How to connect a terminal" });
    expect(await howTo.getAttribute("href")).toBe("/bridge?tab=connect");
    await settle(page, diagnostics);
    await screenshot(page, `connect-${kind}-master-waiting-link`);
    await howTo.click();
    await page.waitForURL((url) => url.pathname === "/bridge" && url.searchParams.get("tab") === "connect");

    // The fifth tab is open; the spec's four are there with API Keys first.
    await page.getByTestId("page-bridge-server").waitFor();
    const tabs = page.getByRole("tab");
    expect((await tabs.allTextContents()).map((s) => s.trim())).toEqual(["API Keys", "Endpoints", "Testing", "Documentation", "Connect a terminal"]);
    expect(await page.getByTestId("tab-connect").getAttribute("data-state")).toBe("active");
    expect(await page.getByTestId("tab-api-keys").getAttribute("data-state")).toBe("inactive");

    const steps = page.getByTestId("list-connect-steps");
    expect(await steps.evaluate((el) => el.tagName)).toBe("OL");
    expect(await steps.getByRole("heading", { level: 3 }).allTextContents()).toEqual(STEP_TITLES);
    const step = (n: number) => textOf(page.getByTestId(`step-connect-${n}`));
    expect(await page.getByTestId("link-connect-master").getAttribute("href")).toBe("/master");
    expect(await page.getByTestId("link-connect-slaves").getAttribute("href")).toBe("/slaves");
    expect(await step(2)).toContain("Master Terminal");
    expect(await step(2)).toContain("Slave Terminal");
    expect(await step(3)).toContain("File → Open Data Folder");
    expect(await step(3)).toContain("MQL5");
    expect(await step(4)).toContain("Tools → Options → Expert Advisors");
    expect(await step(4)).toContain("Allow WebRequest for listed URL");
    expect(await step(5)).toContain("CopyBridgeMaster");
    expect(await step(5)).toContain("CopyBridgeSlave");
    expect(await step(5)).toContain("Experts");

    // Step 4 shows this server's own URL, with a copy button; plain http on a port gets the proxy advice.
    const origin = new URL(suite.app.url).origin;
    expect(await textOf(page.getByTestId("text-server-url"))).toBe(origin);
    expect(await page.getByRole("button", { name: "Copy server URL" }).count()).toBe(1);
    expect(await textOf(page.getByTestId("note-server-url"))).toContain("HTTPS is required in production");

    // The download link answers the zip.
    const link = page.getByRole("link", { name: "Download Expert Advisors (.zip)" });
    expect(await link.getAttribute("href")).toBe("/downloads/copybridge-ea.zip");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("copybridge-ea.zip");
    const file = readFileSync(await download.path());
    expect(file.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const direct = await page.request.get("/downloads/copybridge-ea.zip");
    expect(direct.status()).toBe(200);
    expect(direct.headers()["content-type"]).toBe("application/zip");
    expect((await direct.body()).equals(file)).toBe(true);

    await settle(page, diagnostics);
    await screenshotBothThemes(page, `connect-${kind}-tab`);
    await page.getByTestId("step-connect-5").scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, `connect-${kind}-tab-steps-4-5`);

    // Step 2's button opens API Keys with the cursor in the name; the tab parameter is dropped.
    await page.getByTestId("button-connect-api-keys").click();
    await expect.poll(() => page.getByTestId("tab-api-keys").getAttribute("data-state")).toBe("active");
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)).toBe("key-name");
    expect(new URL(page.url()).search).toBe("");
    diagnostics.assertClean();
  });

  it("opens the tab from a deep link and returns to the API Keys default on a plain /bridge", async () => {
    const t = await signUp(suite.app.url);
    await t.api.post("/api/accounts", { accountNumber: "50008888", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" });
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);

    await page.goto("/bridge?tab=connect");
    await page.getByTestId("list-connect-steps").waitFor();
    expect(await page.getByTestId("tab-connect").getAttribute("data-state")).toBe("active");

    // Choosing another tab drops the parameter, so a reload shows the spec's default.
    await page.getByTestId("tab-endpoints").click();
    await page.getByTestId("list-endpoints").waitFor();
    expect(pathOf(page)).toBe("/bridge");
    expect(new URL(page.url()).search).toBe("");
    await page.reload();
    await page.getByTestId("page-bridge-server").waitFor();
    expect(await page.getByTestId("tab-api-keys").getAttribute("data-state")).toBe("active");

    // On a phone the steps stay readable (the tab row scrolls sideways).
    const phone = await suite.open("phone");
    await seedSession(phone.page, t);
    await phone.page.goto("/bridge?tab=connect");
    await phone.page.getByTestId("list-connect-steps").waitFor();
    expect(await phone.page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement.scrollWidth <= 390)).toBe(true);
    // The selected tab is scrolled into the row's view.
    const row = (await phone.page.getByRole("tablist").boundingBox())!;
    const selected = (await phone.page.getByTestId("tab-connect").boundingBox())!;
    expect(selected.x).toBeGreaterThanOrEqual(row.x);
    expect(selected.x + selected.width).toBeLessThanOrEqual(row.x + row.width);
    await settle(phone.page, phone.diagnostics);
    await screenshot(phone.page, `connect-${kind}-tab-phone`);
    phone.diagnostics.assertClean();

    // An unknown tab value falls back to the default too.
    await page.goto("/bridge?tab=nonsense");
    await page.getByTestId("page-bridge-server").waitFor();
    expect(await page.getByTestId("tab-api-keys").getAttribute("data-state")).toBe("active");
    diagnostics.assertClean();
  });
});
