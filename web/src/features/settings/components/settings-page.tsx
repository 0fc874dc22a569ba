import { PageHeader } from "@/components/page-header";
// eslint-disable-next-line no-restricted-imports -- issue 16: Settings hosts the Members card (one-line section insertion agreed for this page)
import { MembersSection } from "@/features/members";
// eslint-disable-next-line no-restricted-imports -- issue 16: Settings hosts the "Your account" card (one-line section insertion agreed for this page)
import { AccountSection } from "@/features/account";
import { OrgSettingsSection } from "./org-settings-form";
import { RetentionCard } from "./retention-card";

/**
 * §2 /settings: the organisation's settings (API Configuration, Notification Settings, System
 * Information; saved on the server, issue 16: OrgSettingsSection), then issue 15's Data retention
 * card, saved with its own button, and the sections other issue-16 areas add below.
 */
export function SettingsPage() {
  return (
    <div className="flex flex-col gap-6" data-testid="page-settings">
      <PageHeader title="Settings" description="Configure API, notification and system preferences" />
      <OrgSettingsSection />
      <RetentionCard />
      <MembersSection />
      <AccountSection />
    </div>
  );
}
