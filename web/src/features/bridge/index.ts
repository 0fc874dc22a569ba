export { BridgePage } from "./components/bridge-page";
