import { ShieldAlert } from "lucide-react";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { CloseOnlyBadge } from "@/components/close-only-badge";
import { EmptyState } from "@/components/empty-state";
import { SyncStatusBadge } from "@/components/sync/sync-status-badge";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { invalidateAccountQueries, useSlaveAccounts } from "@/lib/account-queries";
import { useRealtimeEvent } from "@/lib/realtime";
import { cn } from "@/lib/utils";
import { useRiskLimits } from "../api/risk-requests";
import { EmergencyControlsCard } from "./emergency-controls-card";
import { RiskAccountTab } from "./risk-account-tab";

const ACCOUNT_EVENTS = ["account_updated", "account_created", "account_deleted"] as const;

/**
 * §2 /risk Risk Controls: one tab per slave (alias or number, green dot when isActive, red when
 * not, plus the Close-only badge while protection holds the slave) with that account's risk
 * settings; the Emergency Controls card below.
 */
export function RiskPage() {
  const queryClient = useQueryClient();
  const { slaves, isLoading: slavesLoading, isError: slavesError, refetch: refetchSlaves } = useSlaveAccounts();
  const { byAccount, isLoading: limitsLoading, isError: limitsError, refetch: refetchLimits } = useRiskLimits();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  // Live account changes (pause, enable, new slaves) keep tabs and dots current.
  useRealtimeEvent(() => void invalidateAccountQueries(queryClient), ACCOUNT_EVENTS);

  const active = slaves.some((s) => s.id === selected) ? selected : slaves[0]?.id;

  return (
    <div className="flex flex-col gap-6" data-testid="page-risk-controls">
      <PageHeader title="Risk Controls" description="Configure EA risk management settings for each slave account" />
      {slavesLoading || limitsLoading ? (
        <div className="flex justify-center py-10">
          <Spinner />
        </div>
      ) : slavesError || limitsError ? (
        // Never show defaults in place of settings that failed to load: saving would overwrite them.
        <EmptyState
          icon={ShieldAlert}
          title="Failed to load risk settings."
          action={
            <Button variant="outline" onClick={() => void Promise.all([refetchSlaves(), refetchLimits()])}>
              Try again
            </Button>
          }
        />
      ) : slaves.length === 0 ? (
        <EmptyState
          icon={ShieldAlert}
          title="No slave accounts configured"
          description="Add slave accounts to configure individual risk settings"
          testId="empty-risk"
        />
      ) : (
        <Tabs value={active} onValueChange={setSelected}>
          <TabsList>
            {slaves.map((slave) => (
              <TabsTrigger key={slave.id} value={slave.id} data-testid={`tab-risk-${slave.id}`}>
                <span
                  className={cn("size-2 rounded-full", slave.isActive ? "bg-success" : "bg-destructive")}
                  data-testid={`dot-active-${slave.id}`}
                  data-active={slave.isActive}
                  aria-label={slave.isActive ? "Active" : "Inactive"}
                  role="img"
                />
                {slave.alias || slave.accountNumber}
                <CloseOnlyBadge account={slave} />
                <SyncStatusBadge accountId={slave.id} compact />
              </TabsTrigger>
            ))}
          </TabsList>
          {slaves.map((slave) => (
            <TabsContent key={slave.id} value={slave.id}>
              <RiskAccountTab account={slave} limit={byAccount.get(slave.id)} />
            </TabsContent>
          ))}
        </Tabs>
      )}
      <EmergencyControlsCard />
    </div>
  );
}
