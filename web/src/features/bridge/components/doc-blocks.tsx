import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";

/** A titled section of the Documentation tab. */
export function DocSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h3 className="font-semibold">{title}</h3>
      <div className="flex flex-col gap-2 text-sm text-muted-foreground">{children}</div>
    </section>
  );
}

/** Monospace block that keeps its bytes (wraps long lines) with a copy button. */
export function CodeBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <div className="relative rounded-md border bg-muted/50">
      <pre className="overflow-x-auto p-3 pr-10 font-mono text-xs whitespace-pre-wrap break-all text-foreground" data-testid={testId}>
        {code}
      </pre>
      <div className="absolute top-1 right-1">
        <CopyButton value={code} label={`Copy ${label}`} />
      </div>
    </div>
  );
}

/** Two-column reference table (name → meaning). */
export function DocTable({ head, rows }: { head: [string, string]; rows: readonly (readonly [ReactNode, ReactNode])[] }) {
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted/50 text-xs text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">{head[0]}</th>
            <th className="px-3 py-2 font-medium">{head[1]}</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map(([name, meaning], index) => (
            <tr key={index} className="align-top">
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-foreground">{name}</td>
              <td className="px-3 py-2 text-muted-foreground">{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
