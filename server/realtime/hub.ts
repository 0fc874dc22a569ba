/**
 * Per-tenant socket channels for /ws (spec §4). A socket joins exactly one tenant channel when it
 * authenticates; `publish` serialises a message once and sends it to that tenant's sockets only.
 * Sending is deferred and coalesced (issue 15, goal 7): messages published during one turn of the
 * event loop are queued per socket and written on the next turn (`setImmediate`), each socket's
 * frames corked into one write. So a request that publishes (a master's signal: 1 + N messages)
 * answers first, and 500 sockets cost 500 writes per turn, not 500 × messages. The frames and
 * their order are unchanged: one `{type, data}` JSON text frame per message.
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

/** What `ws` keeps of its TCP socket (`_socket`): corked, a socket's frames leave in one write. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

interface Member {
  socket: HubSocket;
  sessionId: string | null;
  /** Texts waiting for the next flush, in publish order. */
  queue: string[];
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
  /** Members with queued texts; flushed together on the next turn of the event loop. */
  private readonly dirty = new Set<Member>();
  private flushScheduled = false;

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
    const member: Member = { socket, sessionId, queue: [] };
    set.add(member);
    return () => {
      const s = this.channels.get(tenantId);
      if (!s) return;
      s.delete(member);
      this.dirty.delete(member);
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

  /**
   * Queues `message` for this instance's open sockets of `tenantId` only (written on the next turn,
   * see the module comment); returns how many sockets it was queued for.
   */
  deliver(tenantId: string, message: ServerMessage): number {
    const set = this.channels.get(tenantId);
    if (!set || set.size === 0) return 0;
    const text = JSON.stringify(message);
    let queued = 0;
    for (const m of set) {
      if (m.socket.readyState !== OPEN) continue;
      m.queue.push(text);
      this.dirty.add(m);
      queued++;
    }
    if (queued > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return queued;
  }

  /**
   * Writes every queued text now: per socket, its frames in order inside one cork/uncork. Called
   * on the turn after a publish; callable directly (tests, shutdown).
   */
  flush(): void {
    this.flushScheduled = false;
    const members = [...this.dirty];
    this.dirty.clear();
    for (const m of members) {
      const texts = m.queue;
      m.queue = [];
      if (m.socket.readyState !== OPEN) continue;
      const raw = (m.socket as { _socket?: Partial<Corkable> })._socket;
      const tcp = raw && typeof raw.cork === "function" && typeof raw.uncork === "function" ? (raw as Corkable) : null;
      tcp?.cork();
      try {
        for (const text of texts) m.socket.send(text);
      } catch {
        // A socket that fails to send is closing; its close handler removes it.
      } finally {
        tcp?.uncork();
      }
    }
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
