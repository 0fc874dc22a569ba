import type { ServerMessage } from "#contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { invalidateAccountQueries } from "@/lib/account-queries";
import { useRealtime, useRealtimeEvent } from "@/lib/realtime";
import { LIVE_TRADE_EVENTS, type LiveTradeMessage } from "../lib/live-trades-reducer";

const TYPES: readonly ServerMessage["type"][] = [...LIVE_TRADE_EVENTS, "account_created", "account_updated", "account_deleted"];
const isLiveTradeMessage = (message: ServerMessage): message is LiveTradeMessage =>
  (LIVE_TRADE_EVENTS as readonly string[]).includes(message.type);

/**
 * Socket side of Live Trades (§4), rendered as a leaf because it reads the connection state
 * (useRealtime changes with every message): forwards live-trade messages, refetches accounts on
 * account events (balance and equity of the slave tab), and calls `onReconnect` when the socket
 * comes back after a drop (messages may have been missed meanwhile).
 */
export function LiveTradesFeed({
  onMessage,
  onReconnect,
}: {
  onMessage: (message: LiveTradeMessage) => void;
  onReconnect: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const { connected } = useRealtime();
  const wasConnected = useRef(connected);
  const dropped = useRef(false);

  useRealtimeEvent((message) => {
    if (isLiveTradeMessage(message)) onMessage(message);
    else void invalidateAccountQueries(queryClient);
  }, TYPES);

  useEffect(() => {
    if (wasConnected.current && !connected) dropped.current = true;
    if (!wasConnected.current && connected && dropped.current) {
      dropped.current = false;
      void onReconnect();
    }
    wasConnected.current = connected;
  }, [connected, onReconnect]);

  return null;
}
