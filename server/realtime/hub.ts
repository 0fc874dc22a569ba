/**
 * Per-tenant socket channels for /ws (spec §4). A socket joins exactly one tenant channel when it
 * authenticates; `publish` serialises a message once and sends it to that tenant's sockets only.
 * With several instances on one PostgreSQL, `publish` also hands the message to the relay
 * (realtime/cluster.ts), which tells the other instances; they load the rows and `deliver` the
 * message to their own sockets only (no relay again, so nothing echoes).
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

/** Passes what happens here on to the other instances (set by realtime/cluster.ts). */
export interface HubRelay {
  /** A message published here. */
  publish(tenantId: string, message: ServerMessage): void;
  /** A session revoked here: its sockets elsewhere close too. */
  closeSession(tenantId: string, sessionId: string): void;
}

export class RealtimeHub {
  private readonly channels = new Map<string, Set<Member>>();
  private relay: HubRelay | null = null;

  /** Sets (or, with null, removes) the relay to other instances. */
  setRelay(relay: HubRelay | null): void {
    this.relay = relay;
  }

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

  /**
   * Sends `message` to every open socket of `tenantId` on this instance and to the relay (other
   * instances); returns how many sockets here received it. Call it after the change committed.
   */
  publish(tenantId: string, message: ServerMessage): number {
    const sent = this.deliver(tenantId, message);
    this.relay?.publish(tenantId, message);
    return sent;
  }

  /** Sends `message` to this instance's open sockets of `tenantId` only; returns how many received it. */
  deliver(tenantId: string, message: ServerMessage): number {
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

  /**
   * Closes the sockets opened with a session (called when the session is revoked); given the
   * session's tenant, those on the other instances too.
   */
  closeSession(sessionId: string, tenantId?: string): void {
    this.closeLocalSession(sessionId);
    if (tenantId !== undefined) this.relay?.closeSession(tenantId, sessionId);
  }

  /** Closes this instance's sockets opened with a session (another instance revoked it). */
  closeLocalSession(sessionId: string): void {
    for (const set of this.channels.values()) {
      for (const m of set) if (m.sessionId === sessionId) m.socket.close(4001, "session revoked");
    }
  }

  /** Open sockets of a tenant. */
  size(tenantId: string): number {
    return this.channels.get(tenantId)?.size ?? 0;
  }
}
