import type { Account } from "#contract";
import { Check, ChevronDown, Search } from "lucide-react";
import { type ReactNode, useState } from "react";
import { CloseOnlyBadge } from "@/components/close-only-badge";
import { SyncStatusBadge } from "@/components/sync/sync-status-badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";

/**
 * Account tabs of Live Trades and Symbol Mapping (spec §2 /trades, /mappings; §9 only the first 5
 * slave accounts get tabs): 'All Accounts' plus one tab per slave for the first five. Beyond the
 * spec, the other slaves stay reachable through a searchable "More" picker; choosing one adds it
 * as a tab while it is selected. A close-only slave's tab shows the Close-only badge beside its name.
 */

/** Value of the 'All Accounts' tab. */
export const ALL_TAB = "all";
/** §9: only the first 5 slave accounts get tabs. */
export const MAX_SLAVE_TABS = 5;

type SlaveLike = Pick<Account, "id" | "alias" | "accountNumber">;

/** Tab label of a slave: its alias, or else its account number. */
export function slaveTabLabel(account: Pick<Account, "alias" | "accountNumber">): string {
  return account.alias?.trim() || account.accountNumber;
}

/** §2 default tab: the first slave if any, else All. */
export function defaultSlaveTab(slaves: readonly SlaveLike[]): string {
  return slaves[0]?.id ?? ALL_TAB;
}

/** The tab to show: the user's choice while it still exists (All always does), else the default. */
export function resolveSlaveTab(choice: string | null, slaves: readonly SlaveLike[]): string {
  if (choice === ALL_TAB) return ALL_TAB;
  if (choice !== null && slaves.some((s) => s.id === choice)) return choice;
  return defaultSlaveTab(slaves);
}

/**
 * Splits slaves into tabs (the first `max`, plus the selected one when it lies beyond them) and
 * the overflow list (every slave beyond the first `max`, the selected one included).
 */
export function splitSlaveTabs<T extends SlaveLike>(slaves: readonly T[], selected: string, max = MAX_SLAVE_TABS) {
  const tabs = slaves.slice(0, max);
  const overflow = slaves.slice(max);
  const chosen = overflow.find((s) => s.id === selected);
  return { tabs: chosen ? [...tabs, chosen] : tabs, overflow };
}

/** Slaves whose alias, account number or broker contains `query` (case-insensitive). */
export function filterSlaves<T extends SlaveLike & { broker?: string | null }>(slaves: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...slaves];
  return slaves.filter((s) => [s.alias, s.accountNumber, s.broker].some((v) => v?.toLowerCase().includes(q)));
}

/**
 * Selected tab state for `slaves`: starts on the §2 default and falls back to it when the chosen
 * slave disappears. Wait for the slave list to load before rendering, or the default would move.
 */
export function useSlaveTab(slaves: readonly SlaveLike[]) {
  const [choice, setChoice] = useState<string | null>(null);
  return { value: resolveSlaveTab(choice, slaves), onValueChange: setChoice };
}

export interface SlaveTabsProps {
  slaves: readonly Account[];
  /** ALL_TAB or a slave account id. */
  value: string;
  onValueChange: (value: string) => void;
  /** Content of the selected tab. */
  children: ReactNode;
  className?: string;
  /** Show each slave's sync status (issue 14) in its tab (Live Trades). */
  syncStatus?: boolean;
}

/**
 * Test ids: `tab-all`, `tab-slave-<id>`; overflow picker `button-more-slaves`,
 * `input-search-slaves`, `option-slave-<id>`.
 */
export function SlaveTabs({ slaves, value, onValueChange, children, className, syncStatus = false }: SlaveTabsProps) {
  const { tabs, overflow } = splitSlaveTabs(slaves, value);
  return (
    <Tabs value={value} onValueChange={onValueChange} className={className}>
      <div className="flex min-w-0 items-center gap-2">
        <TabsList aria-label="Accounts" className="min-w-0">
          <TabsTrigger value={ALL_TAB} data-testid="tab-all">
            All Accounts
          </TabsTrigger>
          {tabs.map((slave) => (
            <TabsTrigger key={slave.id} value={slave.id} data-testid={`tab-slave-${slave.id}`} title={slaveTabLabel(slave)}>
              <span className="max-w-40 truncate">{slaveTabLabel(slave)}</span>
              <CloseOnlyBadge account={slave} />
              {syncStatus ? <SyncStatusBadge accountId={slave.id} compact /> : null}
            </TabsTrigger>
          ))}
        </TabsList>
        {overflow.length > 0 ? <MoreSlaves slaves={overflow} value={value} onSelect={onValueChange} /> : null}
      </div>
      <TabsContent value={value} className="mt-1">
        {children}
      </TabsContent>
    </Tabs>
  );
}

/** Searchable list of the slaves without a permanent tab. */
function MoreSlaves({ slaves, value, onSelect }: { slaves: readonly Account[]; value: string; onSelect: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const shown = filterSlaves(slaves, query);
  const choose = (id: string) => {
    onSelect(id);
    setOpen(false);
    setQuery("");
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="h-9" data-testid="button-more-slaves" aria-label={`More accounts (${slaves.length})`}>
          More
          <span className="rounded bg-muted px-1.5 text-xs text-muted-foreground tabular">{slaves.length}</span>
          <ChevronDown />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-2">
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && shown[0]) choose(shown[0].id);
            }}
            placeholder="Search accounts..."
            aria-label="Search accounts"
            className="pl-8"
            data-testid="input-search-slaves"
          />
        </div>
        <ul className="mt-2 flex max-h-64 flex-col gap-0.5 overflow-y-auto" aria-label="Other accounts">
          {shown.length === 0 ? <li className="px-2 py-3 text-center text-sm text-muted-foreground">No accounts found</li> : null}
          {shown.map((slave) => {
            const selected = slave.id === value;
            return (
              <li key={slave.id}>
                <button
                  type="button"
                  onClick={() => choose(slave.id)}
                  aria-current={selected ? "true" : undefined}
                  className={cn(
                    "flex w-full cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-left text-sm",
                    "hover:bg-accent focus-visible:bg-accent focus-visible:outline-none",
                    selected && "bg-accent/60",
                  )}
                  data-testid={`option-slave-${slave.id}`}
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{slaveTabLabel(slave)}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      #{slave.accountNumber}
                      {slave.broker ? ` · ${slave.broker}` : ""}
                    </span>
                  </span>
                  {selected ? <Check className="size-4 shrink-0" aria-hidden="true" /> : null}
                </button>
              </li>
            );
          })}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
