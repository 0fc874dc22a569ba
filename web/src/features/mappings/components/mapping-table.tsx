import type { SymbolMap } from "#contract";
import type { SpecLookup } from "../api/symbol-specs";
import { symbolSpecText } from "../lib/symbol-spec-text";
import { ArrowRight } from "lucide-react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useMediaQuery } from "@/lib/use-media-query";
import { formatLotMultiplier } from "../lib/mapping-form";
import { MappingActions, MappingStatusBadge } from "./mapping-actions";

export interface MappingTableProps {
  mappings: readonly SymbolMap[];
  /** All view: show the Slave Account column. */
  showAccount: boolean;
  /** Display name per slave account id. */
  accountLabels: ReadonlyMap<string, string>;
  onEdit: (mapping: SymbolMap) => void;
  onDelete: (mapping: SymbolMap) => void;
  /** Id of the mapping being deleted. */
  deletingId?: string;
  /** Symbol specs each slave's EA reported, shown beside the mapped slave symbol. */
  specs: SpecLookup;
}

const accountOf = (labels: ReadonlyMap<string, string>, mapping: SymbolMap) => labels.get(mapping.slaveAccountId) ?? "Unknown account";

/** The slave broker's spec of the mapped slave symbol, as reported by its EA (or "Not reported yet"). */
function SpecLine({ mapping, specs }: { mapping: SymbolMap; specs: SpecLookup }) {
  const spec = specs.get(mapping.slaveAccountId)?.get(mapping.slaveSymbol);
  return (
    <span className="block max-w-64 text-xs font-normal whitespace-normal text-muted-foreground" data-testid={`spec-mapping-${mapping.id}`} title="Slave broker's symbol spec (lots, digits, contract size, tick value)">
      {symbolSpecText(spec)}
    </span>
  );
}

/**
 * §2 /mappings table: Master Symbol (MT5), Slave Symbol (MT4), Slave Account (All view only),
 * Lot Multiplier, Status (Active or Disabled) and Actions (Edit, Delete). Phones get one card
 * per mapping with the same fields and test ids.
 */
export function MappingTable(props: MappingTableProps) {
  const wide = useMediaQuery("(min-width: 640px)");
  return wide ? <WideTable {...props} /> : <MappingCards {...props} />;
}

function WideTable({ mappings, showAccount, accountLabels, onEdit, onDelete, deletingId, specs }: MappingTableProps) {
  return (
    <div className="rounded-lg border bg-card" data-testid="table-mappings">
      <Table>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Master Symbol (MT5)</TableHead>
            <TableHead>Slave Symbol (MT4)</TableHead>
            {showAccount ? <TableHead>Slave Account</TableHead> : null}
            <TableHead>Lot Multiplier</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {mappings.map((mapping) => (
            <TableRow key={mapping.id} data-testid={`row-mapping-${mapping.id}`}>
              <TableCell className="font-medium whitespace-nowrap">
                <span className="inline-flex items-center gap-2">
                  {mapping.masterSymbol}
                  <ArrowRight className="size-3.5 text-muted-foreground" aria-hidden="true" />
                </span>
              </TableCell>
              <TableCell className="font-medium">
                <span className="whitespace-nowrap" data-testid={`slave-symbol-${mapping.id}`}>
                  {mapping.slaveSymbol}
                </span>
                <SpecLine mapping={mapping} specs={specs} />
              </TableCell>
              {showAccount ? (
                <TableCell className="max-w-56 truncate text-muted-foreground" title={accountOf(accountLabels, mapping)}>
                  {accountOf(accountLabels, mapping)}
                </TableCell>
              ) : null}
              <TableCell className="tabular">{formatLotMultiplier(mapping.lotMultiplier)}</TableCell>
              <TableCell>
                <MappingStatusBadge mapping={mapping} />
              </TableCell>
              <TableCell>
                <MappingActions mapping={mapping} onEdit={onEdit} onDelete={onDelete} deleting={deletingId === mapping.id} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function MappingCards({ mappings, showAccount, accountLabels, onEdit, onDelete, deletingId, specs }: MappingTableProps) {
  return (
    <ul className="flex flex-col gap-3" data-testid="table-mappings">
      {mappings.map((mapping) => (
        <li key={mapping.id} className="flex flex-col gap-3 rounded-lg border bg-card p-4" data-testid={`row-mapping-${mapping.id}`}>
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                <span title="Master Symbol (MT5)">{mapping.masterSymbol}</span>
                <ArrowRight className="size-3.5 text-muted-foreground" aria-label="maps to" />
                <span title="Slave Symbol (MT4)" data-testid={`slave-symbol-${mapping.id}`}>
                  {mapping.slaveSymbol}
                </span>
              </p>
              <SpecLine mapping={mapping} specs={specs} />
              {showAccount ? <p className="truncate text-sm text-muted-foreground">{accountOf(accountLabels, mapping)}</p> : null}
            </div>
            <MappingStatusBadge mapping={mapping} />
          </div>
          <div className="flex items-center justify-between gap-3 border-t pt-2">
            <span className="text-sm text-muted-foreground">
              Lot Multiplier <span className="font-medium text-foreground tabular">{formatLotMultiplier(mapping.lotMultiplier)}</span>
            </span>
            <MappingActions mapping={mapping} onEdit={onEdit} onDelete={onDelete} deleting={deletingId === mapping.id} />
          </div>
        </li>
      ))}
    </ul>
  );
}
