/**
 * Confirmations for keys and deletions in a real browser against the real server (issue 13:
 * "disabling an API key with one click stops a terminal with no confirmation; deleting the master
 * deletes its API key without saying so; deleting a slave erases its trade and analytics
 * history"): disabling a key asks, naming the terminal that stops (Cancel keeps it enabled,
 * Disable disables it; enabling does not ask); deleting a key says which terminal stops; the
 * slave and master delete dialogs name the bound keys and say the history stays.
 */
import { describe, expect, it } from "vitest";
import { apiKeyListSchema, executionListSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent } from "../support/bridge.ts";
import { seedSession } from "./support/auth.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { expectToast, textOf } from "./support/ui.ts";

const enabledOf = async (t: TradingTenant, keyId: string) =>
  apiKeyListSchema.parse((await t.api.get("/api/bridge/api-keys")).body).find((k) => k.id === keyId)?.enabled;

describe.each(databaseKinds())("confirmations for keys and deletions on %s", (kind) => {
  const suite = browserSuite(kind, "confirmations");

  it("disabling a key asks first, naming the terminal; Cancel keeps it, Disable stops it; delete names the terminal too", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    const slaveKey = t.keys.slaves[0]!;
    const masterKey = t.keys.master;
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/bridge");
    const badge = page.getByTestId(`badge-key-status-${slaveKey.id}`);
    await badge.waitFor();

    // Disable → the question names the key and the slave EA that stops; Cancel changes nothing.
    await page.getByTestId(`switch-key-${slaveKey.id}`).click();
    const disable = page.getByTestId("dialog-confirm-key-disable");
    await disable.waitFor();
    await disable.getByText("Disable SLAVE key? The SLAVE EA of S1 (7001) stops until the key is enabled again.", { exact: true }).waitFor();
    await disable.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect(await textOf(badge)).toBe("Enabled");
    expect(await enabledOf(t, slaveKey.id)).toBe(true);

    // Confirmed: the key is disabled and its EA is refused.
    await page.getByTestId(`switch-key-${slaveKey.id}`).click();
    await disable.waitFor();
    await disable.getByTestId("button-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    await badge.filter({ hasText: "Disabled" }).waitFor();
    expect(await enabledOf(t, slaveKey.id)).toBe(false);
    await expect(t.slaves[0]!.poll({ waitMs: 0 })).rejects.toMatchObject({ status: 401 });

    // Enabling again does not ask.
    await page.getByTestId(`switch-key-${slaveKey.id}`).click();
    await badge.filter({ hasText: "Enabled" }).waitFor();
    expect(await page.getByTestId("dialog-confirm").count()).toBe(0);
    expect(await enabledOf(t, slaveKey.id)).toBe(true);

    // Delete: the §8 question, then the terminal that stops; Cancel keeps the key.
    await page.getByTestId(`button-delete-key-${masterKey.id}`).click();
    const del = page.getByTestId("dialog-confirm-key-delete");
    await del.waitFor();
    await del
      .getByText('Are you sure you want to delete the API key "MASTER key"? This action cannot be undone and will immediately revoke access for any terminals using this key.', { exact: true })
      .waitFor();
    expect(await textOf(del.getByTestId("text-key-delete-consequence"))).toBe("The MASTER EA of Main (50001234) stops for good; this cannot be undone.");
    await del.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect(await enabledOf(t, masterKey.id)).toBe(true);

    await t.close();
    diagnostics.assertClean();
  });

  it("the slave delete dialog names its keys and history; confirmed, the slave goes and its history stays", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    const [s1, s2] = t.slaveIds as [string, string];
    // History for S1: one copy queued for it.
    const open = await t.master.signal(masterEvent("OPEN", { ticket: 4401 }));
    expect(open.body.queued).toBe(2);

    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);

    // Master page: the master's keys and what happens to the slaves (Cancel only).
    await page.goto("/master");
    await page.getByTestId("button-delete-master").click();
    const masterDialog = page.getByTestId("dialog-confirm-account-delete");
    await masterDialog.getByText("Are you sure you want to delete this master account? This action cannot be undone.", { exact: true }).waitFor();
    await masterDialog
      .getByTestId("text-delete-account-consequences")
      .filter({ hasText: "Deleting Main deletes its 1 API key. Its trades, executions and analytics stay readable in history. Slaves stay; copying stops until a new master is added." })
      .waitFor();
    await masterDialog.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });

    await page.goto("/slaves");
    await page.getByTestId(`button-delete-slave-${s1}`).click();
    const dialog = page.getByTestId("dialog-confirm-account-delete");
    await dialog.getByText("Are you sure you want to delete this slave account? This action cannot be undone.", { exact: true }).waitFor();
    const consequences = dialog.getByTestId("text-delete-account-consequences");
    await consequences.filter({ hasText: "its 1 API key." }).waitFor();
    expect(await textOf(consequences)).toBe("Deleting S1 stops copying to it and deletes its 1 API key. Its trades, executions and analytics stay readable in history.");
    // Cancel keeps it.
    await dialog.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect((await t.api.get(`/api/accounts/${s1}`)).status).toBe(200);

    // Confirmed: the card goes, its key goes, its executions stay readable.
    await page.getByTestId(`button-delete-slave-${s1}`).click();
    await dialog.getByTestId("button-confirm").click();
    await expectToast(page, "Slave account deleted successfully.");
    await page.getByTestId(`card-slave-${s1}`).waitFor({ state: "detached" });
    await page.getByTestId(`card-slave-${s2}`).waitFor();
    const keys = apiKeyListSchema.parse((await t.api.get("/api/bridge/api-keys")).body).map((k) => k.id);
    expect(keys).not.toContain(t.keys.slaves[0]!.id);
    const history = executionListSchema.parse((await t.api.get(`/api/executions?accountId=${s1}`)).body);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ status: "cancelled", reasonCode: "account_deleted" });

    await t.close();
    diagnostics.assertClean();
  });
});
