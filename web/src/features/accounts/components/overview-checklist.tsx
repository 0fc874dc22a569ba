import type { OverviewChecklist } from "#contract";
import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

interface Step {
  key: Exclude<keyof OverviewChecklist, "complete">;
  title: string;
  hint: string;
  to: string;
  action: string;
}

/** The four steps, in the order a desk does them, each linking to where it is done. */
const STEPS: readonly Step[] = [
  { key: "masterConnected", title: "Connect the master terminal", hint: "Add the master account and run the Master EA; done at its first heartbeat.", to: "/master", action: "Master Account" },
  { key: "slaveConnected", title: "Connect a slave terminal", hint: "Add a slave account and run the Slave EA; done at its first heartbeat.", to: "/slaves", action: "Slave Accounts" },
  { key: "keyPerTerminal", title: "One API key per terminal", hint: "Every account has its own enabled key bound to it.", to: "/bridge?tab=api-keys", action: "API Keys" },
  { key: "mappingsChecked", title: "Check symbol mappings", hint: "Every slave has reported its symbols and every mapping names one of them.", to: "/mappings", action: "Symbol Mapping" },
];

/** Issue 16: the setup checklist a new organisation follows until it is connected (shown until `complete`). */
export function OverviewChecklistCard({ checklist }: { checklist: OverviewChecklist }) {
  const done = STEPS.filter((s) => checklist[s.key]).length;
  return (
    <Card data-testid="card-setup-checklist">
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Set up copying</CardTitle>
        <p className="text-sm text-muted-foreground" data-testid="text-checklist-progress">
          {done} of {STEPS.length} steps done
        </p>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-3">
          {STEPS.map((step) => {
            const ok = checklist[step.key];
            const Icon = ok ? CheckCircle2 : Circle;
            return (
              <li key={step.key} className="flex items-start gap-3" data-testid={`checklist-${step.key}`} data-done={ok}>
                <Icon className={cn("mt-0.5 size-5 shrink-0", ok ? "text-success" : "text-muted-foreground")} aria-label={ok ? "Done" : "To do"} role="img" />
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className={cn("text-sm font-medium", ok && "text-muted-foreground line-through")}>{step.title}</span>
                  <span className="text-xs text-muted-foreground">{step.hint}</span>
                </div>
                {ok ? null : (
                  <Link to={step.to} className="shrink-0 text-sm font-medium text-primary underline-offset-4 hover:underline" data-testid={`link-checklist-${step.key}`}>
                    {step.action}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
