import type { Account } from "#contract";
import { AccountStatusBadge } from "@/components/account-status-badge";
import { Card, CardContent } from "@/components/ui/card";
import { formatMoney } from "@/lib/format";

/** §2 account tab header: alias or number, broker, currency, balance and equity. */
export function AccountHeader({ account }: { account: Account }) {
  const currency = account.currency || "USD";
  return (
    <Card data-testid="header-analytics-account">
      <CardContent className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <h2 className="truncate text-lg font-semibold" data-testid="text-analytics-account">
              {account.alias || account.accountNumber}
            </h2>
            <AccountStatusBadge status={account.status} />
          </div>
          <p className="truncate text-sm text-muted-foreground">
            {account.broker} • {currency}
            {account.alias ? ` • #${account.accountNumber}` : ""}
          </p>
        </div>
        <dl className="flex gap-6 text-sm">
          <div>
            <dt className="text-muted-foreground">Balance</dt>
            <dd className="font-semibold tabular" data-testid="text-analytics-balance">
              {formatMoney(account.balance, currency)}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Equity</dt>
            <dd className="font-semibold tabular" data-testid="text-analytics-equity">
              {formatMoney(account.equity, currency)}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
