import { Download, Info, KeyRound } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EA_DOWNLOAD_URL, serverUrlWarnings } from "../api/server-url";
import { CopyButton } from "./copy-button";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** One numbered step: its number (decorative; the list numbers it for assistive technology), heading and body. */
function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4" data-testid={`step-connect-${n}`}>
      <span
        className="flex size-7 shrink-0 items-center justify-center rounded-full border bg-muted text-sm font-semibold text-foreground"
        aria-hidden="true"
      >
        {n}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <h3 className="leading-7 font-semibold">{title}</h3>
        <div className="flex flex-col gap-2 text-sm text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}

/** A menu path or setting name as MetaTrader shows it. */
function Ui({ children }: { children: ReactNode }) {
  return <span className="font-medium text-foreground">{children}</span>;
}

/**
 * Bridge Server "Connect a terminal" tab — issue 10's addition to the spec's four tabs: the
 * Expert Advisor download and the five steps from an account on the dashboard to a running EA,
 * with this server's URL (window.location.origin) to allow in MetaTrader. `onOpenApiKeys`
 * switches to the API Keys tab.
 */
export function ConnectTerminalTab({ onOpenApiKeys }: { onOpenApiKeys: () => void }) {
  const origin = window.location.origin;
  const warnings = serverUrlWarnings(origin);

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Connect a MetaTrader terminal</CardTitle>
          <CardDescription>
            Run CopyBridgeMaster on the master account's terminal and CopyBridgeSlave on each slave account's terminal. The download holds both
            Expert Advisors for MetaTrader 5 and MetaTrader 4, with a README.
          </CardDescription>
        </div>
        <Button asChild className="self-start">
          <a href={EA_DOWNLOAD_URL} download="copybridge-ea.zip" data-testid="link-download-ea">
            <Download aria-hidden="true" />
            Download Expert Advisors (.zip)
          </a>
        </Button>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-6" aria-label="Steps to connect a terminal" data-testid="list-connect-steps">
          <Step n={1} title="Add the account">
            <p>
              Add the master under{" "}
              <Link to="/master" className={linkClass} data-testid="link-connect-master">
                Master Account
              </Link>{" "}
              and every slave under{" "}
              <Link to="/slaves" className={linkClass} data-testid="link-connect-slaves">
                Slave Accounts
              </Link>
              . Login, server, balance and currency fill in once its EA connects.
            </p>
          </Step>
          <Step n={2} title="Create an API key for the terminal">
            <p>
              One key per terminal, on the API Keys tab: scope <Ui>Master Terminal</Ui> for the master EA; scope <Ui>Slave Terminal</Ui> with
              the slave's <Ui>Account ID</Ui> for a slave EA. Copy the key and its secret when they appear: the secret is shown only once.
            </p>
            <div>
              <Button type="button" variant="outline" size="sm" onClick={onOpenApiKeys} data-testid="button-connect-api-keys">
                <KeyRound aria-hidden="true" />
                Open API Keys
              </Button>
            </div>
          </Step>
          <Step n={3} title="Copy the Expert Advisors into the terminal">
            <p>
              In MetaTrader choose <Ui>File → Open Data Folder</Ui> and copy the <Ui>MQL5</Ui> folder from the zip (MetaTrader 5) or the{" "}
              <Ui>MQL4</Ui> folder (MetaTrader 4) into it, merging with the folder already there. Then right-click <Ui>Expert Advisors</Ui> in
              the Navigator and choose <Ui>Refresh</Ui>; if CopyBridge is not listed, open the EA in MetaEditor (F4) and press Compile (F7).
            </p>
          </Step>
          <Step n={4} title="Allow this server's URL">
            <p>
              Open <Ui>Tools → Options → Expert Advisors</Ui>, tick <Ui>Allow WebRequest for listed URL</Ui> and add this server's URL exactly:
            </p>
            <div className="flex max-w-xl items-center gap-1 rounded-md border bg-muted/50 py-1 pr-1 pl-3">
              <code className="min-w-0 flex-1 font-mono text-sm break-all text-foreground" data-testid="text-server-url">
                {origin}
              </code>
              <CopyButton value={origin} label="Copy server URL" testId="button-copy-server-url" />
            </div>
            {warnings.length > 0 ? (
              <div className="flex gap-2 rounded-md border border-info/40 bg-info/10 p-3 text-foreground" data-testid="note-server-url">
                <Info className="mt-0.5 size-4 shrink-0 text-info" aria-hidden="true" />
                <ul className="flex flex-col gap-1">
                  {warnings.map((warning) => (
                    <li key={warning}>{warning}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </Step>
          <Step n={5} title="Attach the EA to a chart">
            <p>
              Drag <Ui>CopyBridgeMaster</Ui> (master account) or <Ui>CopyBridgeSlave</Ui> (slave accounts) from the Navigator onto any chart.
              On the Inputs tab enter the <Ui>Server URL</Ui> above, the <Ui>API key</Ui> and the <Ui>API secret</Ui> (a slave key not bound
              to an account also needs the <Ui>Slave account number</Ui>); on the Common tab allow algorithmic trading, and switch{" "}
              <Ui>Algo Trading</Ui> on in the toolbar (MetaTrader 4: <Ui>AutoTrading</Ui>).
            </p>
            <p>
              The EA writes a one-line status in the top-left corner of its chart. Errors — a URL missing from the allowed list, a disabled key, a wrong secret — show
              in the Toolbox's <Ui>Experts</Ui> tab. Once the first heartbeat arrives the account shows its login, server and balance on the
              dashboard.
            </p>
          </Step>
        </ol>
      </CardContent>
    </Card>
  );
}
