import { CopyPausedBanner } from "@/components/copy-paused-banner";
import { PageHeader } from "@/components/page-header";
import { useNow } from "@/lib/use-now";
import { useOverview } from "../api/overview-query";
import { useAccountLiveSync } from "../api/use-account-live-sync";
import { LiveStatus } from "./live-status";
import { OverviewChecklistCard } from "./overview-checklist";
import { OverviewDeskFigures } from "./overview-desk-figures";
import { OverviewMasterCard } from "./overview-master-card";
import { OverviewSlaveGrid } from "./overview-slave-grid";
import { OverviewVerdicts } from "./overview-verdicts";

/**
 * §2 / Overview: live status, master card and slave grid, kept fresh by account events (§4). Issue
 * 16: above them the setup checklist until the organisation is connected, then today's desk figures.
 */
export function OverviewPage() {
  useAccountLiveSync();
  const now = useNow(1000);
  const overview = useOverview().data;
  return (
    <div className="flex flex-col gap-6" data-testid="page-overview">
      <PageHeader
        title="Dashboard Overview"
        description="Monitor your MT5 to MT4 trade copying in real time"
        actions={<LiveStatus />}
      />
      <CopyPausedBanner />
      {overview ? (
        overview.checklist.complete ? (
          <OverviewDeskFigures today={overview.today} />
        ) : (
          <OverviewChecklistCard checklist={overview.checklist} />
        )
      ) : null}
      <OverviewMasterCard now={now} />
      <OverviewVerdicts now={now} />
      <OverviewSlaveGrid now={now} />
    </div>
  );
}
