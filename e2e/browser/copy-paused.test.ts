/**
 * "Copying paused" with Resume copying in a real browser against the real server (issue 13):
 * Pause All shows the organisation's pause in the sidebar (near PANIC STOP) and as a banner on
 * Overview; another dashboard's pause arrives live; Resume copying asks first, says what will
 * happen, toasts, and re-enables only the slaves the pause paused.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { NO_MASTER_YET } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpConfigTenant } from "./support/trading.ts";
import { confirmDialog, expectToast } from "./support/ui.ts";

describe.each(databaseKinds())("Copying paused on %s", (kind) => {
  const suite = browserSuite(kind, "copy-paused");

  it("Pause All → sidebar state and Overview banner → Resume copying with confirmation → gone", async () => {
    // Alpha is active; Beta was disabled by its user (stays disabled after Resume copying).
    const t = await setUpConfigTenant(suite.app.url);
    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/risk");
    await page.getByTestId("page-risk-controls").waitFor();
    expect(await page.getByTestId("badge-copy-paused").count()).toBe(0);

    await page.getByTestId("button-pause-all").click();
    await expectToast(page, "All copying has been paused.");
    const badge = page.getByTestId("badge-copy-paused");
    await badge.waitFor();
    expect((await badge.textContent())?.trim()).toBe("Copying paused");
    // Near PANIC STOP, in the sidebar.
    expect(await page.getByTestId("sidebar").getByTestId("badge-copy-paused").count()).toBe(1);

    await page.goto("/");
    const banner = page.getByTestId("banner-copy-paused");
    await banner.waitFor();
    await banner.getByText("Copying paused", { exact: true }).waitFor();
    await screenshotBothThemes(page, `copy-paused-${kind}-banner`);

    // Cancel changes nothing.
    const beforeCancel = calls.mark();
    await banner.getByTestId("button-resume-copying").click();
    await page.getByTestId("dialog-confirm").waitFor();
    await page.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect(calls.of("POST", "/api/emergency/resume", beforeCancel)).toHaveLength(0);
    await banner.waitFor();

    const beforeResume = calls.mark();
    await banner.getByTestId("button-resume-copying").click();
    await confirmDialog(
      page,
      "Copying resumes for the organisation: 1 slave account(s) paused by Pause All / PANIC STOP will take new trades again. Slaves you disabled stay disabled.",
    );
    await expectToast(page, "Copying resumed");
    expect(calls.of("POST", "/api/emergency/resume", beforeResume)).toHaveLength(1);
    await banner.waitFor({ state: "detached" });
    await badge.waitFor({ state: "detached" });
    expect((await t.api.get("/api/auth/me")).body.tenant.copyPaused).toBe(false);
    expect((await t.api.get(`/api/accounts/${t.alphaId}`)).body.status).toBe("active");
    expect((await t.api.get(`/api/accounts/${t.betaId}`)).body.status).toBe("paused");

    // Another dashboard's PANIC STOP reaches this one live (tenant_updated), without a reload.
    expect((await t.api.post("/api/emergency/panic-stop")).status).toBe(200);
    await banner.waitFor();
    await badge.waitFor();
    // ...and its Resume too.
    expect((await t.api.post("/api/emergency/resume")).status).toBe(200);
    await banner.waitFor({ state: "detached" });
    await badge.waitFor({ state: "detached" });

    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("shows the pause from the first paint after a reload", async () => {
    const t = await setUpConfigTenant(suite.app.url);
    expect((await t.api.post("/api/emergency/pause-all")).status).toBe(200);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/");
    await page.getByTestId("banner-copy-paused").waitFor();
    await page.getByTestId("badge-copy-paused").waitFor();
    diagnostics.assertClean(NO_MASTER_YET);
  });
});
