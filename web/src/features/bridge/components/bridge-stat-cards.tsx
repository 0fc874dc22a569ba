import { Activity, Gauge, type LucideIcon, Radio, Timer } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { formatNumber } from "@/lib/format";
import { useBridgeStats } from "../api/bridge-stats";

function StatCard({ label, value, icon: Icon, testId }: { label: string; value: string; icon: LucideIcon; testId: string }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
          <p className="mt-1 text-2xl font-semibold tabular" data-testid={testId}>
            {value}
          </p>
        </div>
        <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      </CardContent>
    </Card>
  );
}

/** §2 /bridge stat cards (§3 Bridge stats), polled every 2000 ms; '—' until the first answer. */
export function BridgeStatCards() {
  const { data } = useBridgeStats();
  const show = (value: number | undefined, decimals = 0) => (value === undefined ? "—" : formatNumber(value, decimals));
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
      <StatCard label="Total Signals" value={show(data?.totalSignals)} icon={Radio} testId="stat-total-signals" />
      <StatCard label="Active Connections" value={show(data?.activeConnections)} icon={Activity} testId="stat-active-connections" />
      <StatCard label="Avg Latency (ms)" value={show(data?.avgLatencyMs)} icon={Timer} testId="stat-avg-latency" />
      <StatCard label="Success Rate (%)" value={show(data?.successRate, 1)} icon={Gauge} testId="stat-success-rate" />
    </div>
  );
}
