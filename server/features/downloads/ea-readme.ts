/**
 * README-CopyBridge.txt, the connect steps shipped inside the EA download. The same steps are on
 * the dashboard (Bridge Server → Connect a terminal) and in README.md § Connect MetaTrader.
 */

/** File name of the readme at the root of the zip. */
export const EA_README_NAME = "README-CopyBridge.txt";

const LINES = [
  "CopyBridge Expert Advisors",
  "==========================",
  "",
  "This archive holds the CopyBridge Expert Advisors (EAs) as source code, laid out like a",
  "MetaTrader data folder:",
  "",
  "  MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5, CopyBridgeSlave.mq5   (MetaTrader 5)",
  "  MQL5/Include/CopyBridge/*.mqh",
  "  MQL4/Experts/CopyBridge/CopyBridgeMaster.mq4, CopyBridgeSlave.mq4   (MetaTrader 4)",
  "  MQL4/Include/CopyBridge/*.mqh",
  "",
  "Connect a terminal",
  "------------------",
  "1. Add the account on the dashboard: the master under Master Account, each slave under",
  "   Slave Accounts.",
  "2. Create an API key on the dashboard (Bridge Server -> API Keys): scope Master Terminal for the",
  "   master EA; scope Slave Terminal with the slave's Account ID for a slave EA. Copy the key and",
  "   the secret: the secret is shown only once.",
  "3. In MetaTrader choose File -> Open Data Folder and copy the MQL5 folder of this archive",
  "   (MetaTrader 5) or the MQL4 folder (MetaTrader 4) into it, merging with the folder that is",
  "   already there. In the Navigator right-click Expert Advisors -> Refresh; if CopyBridge is not",
  "   listed, open the EA in MetaEditor (F4) and press Compile (F7).",
  "4. Tools -> Options -> Expert Advisors: tick \"Allow WebRequest for listed URL\" and add the",
  "   server URL exactly as the dashboard shows it (Bridge Server -> Connect a terminal), e.g.",
  "   https://copy.example.com. MetaTrader's WebRequest uses port 80 for http:// and 443 for",
  "   https:// addresses, so the server should be reachable there.",
  "5. Attach CopyBridgeMaster (master account) or CopyBridgeSlave (slave accounts) to any chart.",
  "   On the Inputs tab enter the Server URL, the API key and the API secret (a slave key not",
  "   bound to an account also needs the Slave account number); on the Common tab allow",
  "   algorithmic trading (MT4: live trading), and switch Algo Trading (MT4: AutoTrading) on in",
  "   the toolbar.",
  "",
  "The EA writes a one-line status on its chart. Errors and every request it could not make",
  "appear in the Toolbox, Experts tab (an unlisted URL says which address to add under",
  "Tools -> Options -> Expert Advisors). The account shows as connected on the dashboard after",
  "its first heartbeat.",
  "",
  "Protocol reference for EA authors: docs/bridge-protocol.md in the CopyBridge repository.",
];

/** The readme's text with Windows line endings (it is opened on the terminal's PC). */
export function eaReadmeText(): string {
  return `${LINES.join("\r\n")}\r\n`;
}
