/**
 * Per-tenant socket channels for /ws (spec §4). A socket joins exactly one tenant channel when it
 * authenticates; `publish` serialises a message once and sends it to that tenant's sockets only.
 */
import type { ServerMessage } from "#contract";

/** The part of a `ws` WebSocket the hub needs (keeps the hub testable without sockets). */
export interface HubSocket {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

interface Member {
  socket: HubSocket;
  sessionId: string | null;
}

const OPEN = 1;

export class RealtimeHub {
  private readonly channels = new Map<string, Set<Member>>();

  /** Adds a socket to its tenant's channel; returns the function that removes it. */
  join(tenantId: string, socket: HubSocket, sessionId: string | null = null): () => void {
    let set = this.channels.get(tenantId);
    if (!set) {
      set = new Set();
      this.channels.set(tenantId, set);
    }
    const member: Member = { socket, sessionId };
    set.add(member);
    return () => {
      const s = this.channels.get(tenantId);
      if (!s) return;
      s.delete(member);
      if (s.size === 0) this.channels.delete(tenantId);
    };
  }

  /** Sends `message` to every open socket of `tenantId`; returns how many received it. */
  publish(tenantId: string, message: ServerMessage): number {
    const set = this.channels.get(tenantId);
    if (!set || set.size === 0) return 0;
    const text = JSON.stringify(message);
    let sent = 0;
    for (const m of set) {
      if (m.socket.readyState !== OPEN) continue;
      try {
        m.socket.send(text);
        sent++;
      } catch {
        // A socket that fails to send is closing; its close handler removes it.
      }
    }
    return sent;
  }

  /** Closes the sockets opened with a session (called when the session is revoked). */
  closeSession(sessionId: string): void {
    for (const set of this.channels.values()) {
      for (const m of set) if (m.sessionId === sessionId) m.socket.close(4001, "session revoked");
    }
  }

  /** Open sockets of a tenant. */
  size(tenantId: string): number {
    return this.channels.get(tenantId)?.size ?? 0;
  }
}
