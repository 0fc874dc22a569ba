import type { ServerMessage } from "#contract";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { HEARTBEAT_INTERVAL_MS, RECONNECT_DELAY_MS, parseServerMessage, realtimeUrl } from "./realtime-message";
import { getAuthToken } from "./storage";

export type RealtimeHandler = (message: ServerMessage) => void;

/** Client → server message (contract/realtime.ts clientMessageSchema). */
export interface ClientMessage {
  type: "heartbeat";
  data?: { accountId?: string };
}

export interface RealtimeValue {
  /** §4 live connection state. */
  connected: boolean;
  /** Latest parsed message, or null before the first one. */
  lastMessage: ServerMessage | null;
  /** Epoch ms when `lastMessage` arrived. */
  lastMessageAt: number | null;
  /** Sends a message when the socket is open; returns whether it was sent. */
  send: (message: ClientMessage) => boolean;
  /** Calls `handler` for every incoming message; returns the unsubscribe function. */
  subscribe: (handler: RealtimeHandler) => () => void;
}

/** Stable part (send, subscribe): never changes, so event subscribers do not re-render per message. */
type RealtimeChannel = Pick<RealtimeValue, "send" | "subscribe">;
const RealtimeChannelContext = createContext<RealtimeChannel | null>(null);
const RealtimeContext = createContext<RealtimeValue | null>(null);

interface SocketState {
  connected: boolean;
  lastMessage: ServerMessage | null;
  lastMessageAt: number | null;
}

/**
 * §4/§7 live connection, mounted only while authenticated: one WebSocket to /ws, reconnected
 * 3 s after every close, heartbeat `{type:"heartbeat", data:{}}` every 30 s while open.
 */
export function RealtimeProvider({ children, url }: { children: ReactNode; url?: string }) {
  const [state, setState] = useState<SocketState>({ connected: false, lastMessage: null, lastMessageAt: null });
  const socketRef = useRef<WebSocket | null>(null);
  const handlersRef = useRef(new Set<RealtimeHandler>());

  useEffect(() => {
    let disposed = false;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let heartbeatTimer: ReturnType<typeof setInterval> | undefined;
    const setConnected = (connected: boolean) => setState((s) => (s.connected === connected ? s : { ...s, connected }));

    const connect = () => {
      const socket = new WebSocket(url ?? realtimeUrl(window.location, getAuthToken()));
      socketRef.current = socket;
      socket.onopen = () => {
        setConnected(true);
        heartbeatTimer = setInterval(() => {
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "heartbeat", data: {} }));
        }, HEARTBEAT_INTERVAL_MS);
      };
      socket.onmessage = (event: MessageEvent) => {
        const message = parseServerMessage(event.data);
        if (!message) {
          console.warn("Ignoring unparseable realtime message", event.data);
          return;
        }
        setState((s) => ({ ...s, lastMessage: message, lastMessageAt: Date.now() }));
        for (const handler of handlersRef.current) {
          try {
            handler(message);
          } catch (error) {
            console.error("Realtime handler failed", error);
          }
        }
      };
      socket.onerror = () => setConnected(false);
      socket.onclose = () => {
        clearInterval(heartbeatTimer);
        if (socketRef.current === socket) socketRef.current = null;
        setConnected(false);
        if (!disposed) reconnectTimer = setTimeout(connect, RECONNECT_DELAY_MS);
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(reconnectTimer);
      clearInterval(heartbeatTimer);
      socketRef.current?.close();
      socketRef.current = null;
    };
  }, [url]);

  const send = useCallback((message: ClientMessage) => {
    const socket = socketRef.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }, []);

  const subscribe = useCallback((handler: RealtimeHandler) => {
    handlersRef.current.add(handler);
    return () => {
      handlersRef.current.delete(handler);
    };
  }, []);

  const channel = useMemo<RealtimeChannel>(() => ({ send, subscribe }), [send, subscribe]);
  const value = useMemo<RealtimeValue>(() => ({ ...state, send, subscribe }), [state, send, subscribe]);
  return (
    <RealtimeChannelContext.Provider value={channel}>
      <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>
    </RealtimeChannelContext.Provider>
  );
}

/** The live connection of §4; only usable inside the authenticated app. */
export function useRealtime(): RealtimeValue {
  const value = useContext(RealtimeContext);
  if (!value) throw new Error("useRealtime must be used inside <RealtimeProvider>");
  return value;
}

/**
 * Runs `handler` for each incoming message whose type is in `types` (all types when omitted).
 * The latest handler is always used, so callers need not memoise it.
 */
export function useRealtimeEvent(handler: RealtimeHandler, types?: readonly ServerMessage["type"][]): void {
  // The stable channel only: using useRealtime() here would re-render the caller on every message.
  const channel = useContext(RealtimeChannelContext);
  if (!channel) throw new Error("useRealtimeEvent must be used inside <RealtimeProvider>");
  const { subscribe } = channel;
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  const typeKey = types?.join(",") ?? "";
  useEffect(
    () =>
      subscribe((message) => {
        if (typeKey === "" || typeKey.split(",").includes(message.type)) handlerRef.current(message);
      }),
    [subscribe, typeKey],
  );
}
