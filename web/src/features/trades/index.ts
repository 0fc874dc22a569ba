export { TradesPage } from "./components/trades-page";
