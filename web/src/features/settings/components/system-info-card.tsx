import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { APP_VERSION, buildDateLabel, environmentLabel } from "../lib/system-info";

function InfoItem({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-md border bg-muted/40 px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium tabular" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** §2 System Information: version 1.0.0, build date, environment (Production). */
export function SystemInfoCard() {
  const buildDate = buildDateLabel(import.meta.env.VITE_BUILD_DATE, typeof document === "undefined" ? undefined : document.lastModified);
  return (
    <Card>
      <CardHeader>
        <CardTitle>System Information</CardTitle>
        <CardDescription>About this dashboard</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-3">
          <InfoItem label="Version" value={APP_VERSION} testId="text-version" />
          <InfoItem label="Build Date" value={buildDate} testId="text-build-date" />
          <InfoItem label="Environment" value={environmentLabel(import.meta.env.PROD)} testId="text-environment" />
        </dl>
      </CardContent>
    </Card>
  );
}
