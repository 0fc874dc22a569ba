/**
 * Symbol Mapping in a real browser against the real server (spec §2, §5, §8, issue 4): validation,
 * create with a numeric multiplier, the server's duplicate reason, edit and delete.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { consoleError, httpError, settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpConfigTenant } from "./support/trading.ts";
import { confirmDialog, dismissToasts, expectToast, textOf, toast } from "./support/ui.ts";
import { createKey, signedPost } from "../support/bridge.ts";

const MAPPING_CONFIRM = "Are you sure you want to delete this symbol mapping?";
const DUPLICATE_REASON = "A mapping for this master symbol already exists for this slave account";

describe.each(databaseKinds())("Symbol Mapping on %s", (kind) => {
  const suite = browserSuite(kind, "symbol-mapping");
  const open = () => suite.open();
  const config = () => setUpConfigTenant(suite.app.url);

  it("Symbol Mapping: validates, creates with a numeric multiplier, shows the server's duplicate reason, edits and deletes", async () => {
    const t = await config();
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/mappings");
    await page.getByTestId("page-symbol-mapping").waitFor();
    await page.getByText("Configure symbol translations between MT5 and MT4", { exact: true }).waitFor();

    // §2: the default tab is the first slave; both empty states word for word.
    const empty = page.getByTestId("empty-mappings");
    await empty.waitFor();
    expect(await textOf(empty)).toBe("No symbol mappings configured for this account");
    expect(await page.getByTestId(`tab-slave-${t.alphaId}`).getAttribute("data-state")).toBe("active");
    await page.getByTestId("tab-all").click();
    await expect.poll(() => textOf(empty)).toBe("No symbol mappings configured");

    // §5: an empty submit shows the three messages and sends nothing.
    await page.getByTestId("button-add-mapping").click();
    const dialog = page.getByTestId("dialog-create-mapping");
    await dialog.waitFor();
    expect(await dialog.getByTestId("input-lot-multiplier").inputValue()).toBe("1.0");
    const beforeSubmit = calls.mark();
    await dialog.getByTestId("button-submit-mapping").click();
    await dialog.getByTestId("error-masterSymbol").waitFor();
    expect(await textOf(dialog.getByTestId("error-masterSymbol"))).toBe("Master symbol is required");
    expect(await textOf(dialog.getByTestId("error-slaveSymbol"))).toBe("Slave symbol is required");
    expect(await textOf(dialog.getByTestId("error-slaveAccountId"))).toBe("Slave account is required");
    expect(calls.of("POST", "/api/symbol-maps", beforeSubmit)).toEqual([]);

    // Create: the multiplier typed as '1.5' travels as the number 1.5 (§5, §7).
    await dialog.getByTestId("input-master-symbol").fill("XAUUSD");
    await dialog.getByTestId("input-slave-symbol").fill("GOLD.a");
    await dialog.getByTestId("select-slave-account").click();
    await page.getByTestId(`option-slave-account-${t.alphaId}`).click();
    await dialog.getByTestId("input-lot-multiplier").fill("1.5");
    await dialog.getByTestId("button-submit-mapping").click();
    await dialog.waitFor({ state: "detached" });
    await expectToast(page, "Symbol mapping created successfully.");
    const [post] = calls.of("POST", "/api/symbol-maps", beforeSubmit);
    expect(post?.body).toMatchObject({ masterSymbol: "XAUUSD", slaveSymbol: "GOLD.a", slaveAccountId: t.alphaId, lotMultiplier: 1.5 });
    const maps = (await t.api.get("/api/symbol-maps")).body as { id: string; lotMultiplier: unknown }[];
    expect(maps).toHaveLength(1);
    expect(maps[0]).toMatchObject({ masterSymbol: "XAUUSD", slaveSymbol: "GOLD.a", slaveAccountId: t.alphaId, lotMultiplier: 1.5, enabled: true });
    expect(typeof maps[0]!.lotMultiplier).toBe("number");
    const mapId = maps[0]!.id;

    // The table (§2 columns, All view with the Slave Account column).
    const row = page.getByTestId(`row-mapping-${mapId}`);
    await row.waitFor();
    const headers = await page.getByTestId("table-mappings").locator("th").allTextContents();
    expect(headers.map((h) => h.trim())).toEqual(["Master Symbol (MT5)", "Slave Symbol (MT4)", "Slave Account", "Lot Multiplier", "Status", "Actions"]);
    const cells = (await row.locator("td").allTextContents()).map((c) => c.trim());
    expect(cells[0]).toBe("XAUUSD");
    expect(await textOf(page.getByTestId(`slave-symbol-${mapId}`))).toBe("GOLD.a");
    expect(cells.slice(2, 4)).toEqual(["Alpha (#7101)", "1.5"]);
    expect(await textOf(page.getByTestId(`status-mapping-${mapId}`))).toBe("Active");

    // Beside the slave symbol: the slave broker's spec of it, once the slave EA reported it (issue 10).
    expect(await textOf(page.getByTestId(`spec-mapping-${mapId}`))).toBe("Not reported yet");
    const alphaKey = await createKey(t.api, "SLAVE", t.alphaId);
    const gold = { symbol: "GOLD.a", digits: 2, point: "0.01", volumeMin: "0.01", volumeStep: "0.01", volumeMax: "50", contractSize: "100", tickSize: "0.01", tickValue: "1.00", tradeMode: "full", stopsLevel: 0 };
    expect((await signedPost(suite.app.url, alphaKey, "/v1/slave/symbols", JSON.stringify({ symbols: [gold] }))).status).toBe(200);
    await page.reload();
    await page.getByTestId("tab-all").click();
    await expect
      .poll(() => textOf(page.getByTestId(`spec-mapping-${mapId}`)))
      .toBe("Min 0.01 · Step 0.01 · Max 50 · Digits 2 · Contract 100 · Tick value 1");

    // A duplicate: the dialog shows the server's reason, plus the §8 failure toast.
    await page.getByTestId("button-add-mapping").click();
    await dialog.waitFor();
    await dialog.getByTestId("input-master-symbol").fill("XAUUSD");
    await dialog.getByTestId("input-slave-symbol").fill("XAU");
    await dialog.getByTestId("select-slave-account").click();
    await page.getByTestId(`option-slave-account-${t.alphaId}`).click();
    await dialog.getByTestId("button-submit-mapping").click();
    // The modal dialog keeps the toast unclickable: check it, close the dialog, then dismiss it.
    const failure = toast(page, "Failed to create symbol mapping.");
    await failure.waitFor();
    expect(await textOf(failure.getByTestId("toast-title"))).toBe("Error");
    expect(await textOf(dialog.getByTestId("error-mapping-form"))).toBe(DUPLICATE_REASON);
    await dialog.getByTestId("button-cancel-mapping").click();
    await dialog.waitFor({ state: "detached" });
    await dismissToasts(page);
    expect((await t.api.get("/api/symbol-maps")).body).toHaveLength(1);

    // Per-account tabs: Alpha's view without the account column, Beta's empty state.
    await page.getByTestId(`tab-slave-${t.alphaId}`).click();
    await row.waitFor();
    expect(await page.getByTestId("table-mappings").locator("th").count()).toBe(5);
    await page.getByTestId(`tab-slave-${t.betaId}`).click();
    await expect.poll(() => textOf(empty)).toBe("No symbol mappings configured for this account");
    await page.getByTestId("tab-all").click();

    // Edit: disable and change the multiplier.
    await page.getByTestId(`button-edit-mapping-${mapId}`).click();
    const edit = page.getByTestId("dialog-edit-mapping");
    await edit.waitFor();
    expect(await edit.getByTestId("input-master-symbol").inputValue()).toBe("XAUUSD");
    expect(await edit.getByTestId("input-lot-multiplier").inputValue()).toBe("1.5");
    await edit.getByTestId("switch-mapping-enabled").click();
    await edit.getByTestId("input-lot-multiplier").fill("0.75");
    await edit.getByTestId("button-submit-mapping").click();
    await edit.waitFor({ state: "detached" });
    await expectToast(page, "Symbol mapping updated successfully.");
    await expect.poll(() => textOf(page.getByTestId(`status-mapping-${mapId}`))).toBe("Disabled");
    expect((await row.locator("td").nth(3).textContent())?.trim()).toBe("0.75");
    expect((await t.api.get("/api/symbol-maps")).body[0]).toMatchObject({ id: mapId, enabled: false, lotMultiplier: 0.75 });
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-mappings`);

    // Delete after the §5 question: §8 toast, the empty state again.
    await page.getByTestId(`button-delete-mapping-${mapId}`).click();
    await confirmDialog(page, MAPPING_CONFIRM);
    await expectToast(page, "Symbol mapping deleted successfully.");
    await row.waitFor({ state: "detached" });
    expect(await textOf(empty)).toBe("No symbol mappings configured");
    expect((await t.api.get("/api/symbol-maps")).body).toEqual([]);

    diagnostics.assertClean(httpError("POST", "/api/symbol-maps", 409), consoleError("Failed to create symbol mapping."));
  });
});
