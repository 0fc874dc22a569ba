/**
 * Close-only protection in a real browser against the real server (issue 12 "Protection that
 * acts"): a slave put in close-only by a heartbeat below its daily loss stop shows the amber
 * Close-only badge (reason and since in its title) on its /slaves card, on the Overview card and on
 * its Risk Controls and Live Trades tabs; Resume asks for confirmation, saying what will happen,
 * then the badge disappears everywhere and the server answers the account copies normally again.
 */
import { describe, expect, it } from "vitest";
import { accountSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant } from "./support/trading.ts";
import { confirmDialog, expectToast } from "./support/ui.ts";

const REASON = "Daily loss stop reached (3.50% ≥ 3%)";

describe.each(databaseKinds())("close-only badge on %s", (kind) => {
  const suite = browserSuite(kind, "close-only");

  it("shows a close-only slave on its card and tabs with the reason; Resume asks first, then clears it", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    const [s1, s2] = t.slaveIds as [string, string];
    const limit = await t.api.post("/api/risk-limits", { accountId: s1, targetId: s1, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true });
    expect(limit.status).toBe(200);
    await t.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await t.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9650.00" });
    await t.slaves[1]!.slaveHeartbeat({ balance: "5000.00", equity: "5000.00" });

    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);

    // /slaves: the badge beside S1's status, with the reason; S2 has none.
    await page.goto("/slaves");
    const card = page.getByTestId(`card-slave-${s1}`);
    const badge = card.getByTestId("badge-close-only");
    await badge.waitFor();
    expect(await badge.textContent()).toBe("Close-only");
    expect(await badge.getAttribute("title")).toMatch(new RegExp(`^${escape(REASON)} — since \\d{2}:\\d{2} \\(\\d+[sm] ago\\)$`));
    expect(await card.getByTestId(`text-close-only-reason-${s1}`).textContent()).toBe(`No new trades: ${REASON}`);
    expect(await page.getByTestId(`card-slave-${s2}`).getByTestId("badge-close-only").count()).toBe(0);

    // Overview card.
    await page.goto("/");
    await page.getByTestId(`card-slave-${s1}`).getByTestId("badge-close-only").waitFor();
    expect(await page.getByTestId(`card-slave-${s2}`).getByTestId("badge-close-only").count()).toBe(0);

    // Risk Controls tab: the badge beside the tab name, reason in its title.
    await page.goto("/risk");
    const riskTab = page.getByTestId(`tab-risk-${s1}`);
    const tabBadge = riskTab.getByTestId("badge-close-only");
    await tabBadge.waitFor();
    expect(await tabBadge.getAttribute("title")).toContain(REASON);
    expect(await page.getByTestId(`tab-risk-${s2}`).getByTestId("badge-close-only").count()).toBe(0);

    // Live Trades tab.
    await page.goto("/trades");
    await page.getByTestId(`tab-slave-${s1}`).getByTestId("badge-close-only").waitFor();

    // Resume from the card: a confirmation that says what will happen, then the badge goes.
    await page.goto("/slaves");
    await card.getByTestId("button-resume-slave").click();
    // Cancelling changes nothing.
    await page.getByTestId("dialog-confirm").getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect(accountSchema.parse((await t.api.get(`/api/accounts/${s1}`)).body).closeOnly).not.toBeNull();
    await card.getByTestId("button-resume-slave").click();
    await confirmDialog(page, "S1 will copy new trades again today even though daily loss stop reached (3.50% ≥ 3%).");
    await expectToast(page, "Copying resumed for S1");
    await card.getByTestId("badge-close-only").waitFor({ state: "detached" });
    expect(accountSchema.parse((await t.api.get(`/api/accounts/${s1}`)).body).closeOnly).toBeNull();

    await page.goto("/risk");
    await page.getByTestId(`tab-risk-${s1}`).waitFor();
    expect(await page.getByTestId(`tab-risk-${s1}`).getByTestId("badge-close-only").count()).toBe(0);
    await t.close();
    diagnostics.assertClean();
  });

  it("shows the badge as soon as a heartbeat trips close-only, without a reload", async () => {
    const t = await setUpTradingTenant(suite.app.url, 1);
    const [s1] = t.slaveIds as [string];
    await t.api.post("/api/risk-limits", { accountId: s1, targetId: s1, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true });
    await t.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/slaves");
    const card = page.getByTestId(`card-slave-${s1}`);
    await card.waitFor();
    expect(await card.getByTestId("badge-close-only").count()).toBe(0);
    await t.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9650.00" });
    await card.getByTestId("badge-close-only").waitFor();
    await t.close();
    diagnostics.assertClean();
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
