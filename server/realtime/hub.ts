/**
 * Per-tenant socket channels for /ws (spec §4). A socket joins exactly one tenant channel when it
 * authenticates; `publish` serialises a message once and sends it to that tenant's sockets only.
 * Sending is deferred and coalesced (issue 15, goal 7): messages published during one turn of the
 * event loop are queued per tenant channel and written on the next turn (`setImmediate`). Every
 * socket of a channel receives the same frames, so the frames of a turn are built ONCE per
 * channel — one buffer of WebSocket text frames (ws's own `Sender.frame`) — and each socket gets
 * one write of that buffer (a socket that joined during the turn gets the tail published after it
 * joined). So a request that publishes (a master's signal: 1 + N messages) answers first, and 500
 * sockets cost 500 writes of one shared buffer per turn, not 500 × messages encodings and frames.
 * The frames and their order are unchanged: one `{type, data}` JSON text frame per message.
 * A socket whose frames cannot be shared (a compression extension negotiated: each socket
 * compresses in its own context; or a socket without its TCP socket, in tests) gets `send` per
 * message, corked into one write when it can be.
 * With several instances on one PostgreSQL, `publish` also hands the message to the relay
 * (realtime/cluster.ts), which tells the other instances; they load the rows and `deliver` the
 * message to their own sockets only (no relay again, so nothing echoes).
 */
import * as ws from "ws";
import type { ServerMessage } from "#contract";

/** The part of a `ws` WebSocket the hub needs (keeps the hub testable without sockets). */
export interface HubSocket {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** ws: the negotiated extensions ("" when none); frames are shared only then. */
  readonly extensions?: string;
}

/** What `ws` keeps of its TCP socket (`_socket`): corked, a socket's frames leave in one write. */
interface TcpSocket {
  cork(): void;
  uncork(): void;
  write?(data: Buffer): boolean;
}

/**
 * ws's frame builder (lib/sender.js `Sender.frame`, public in ws but absent from @types/ws):
 * returns the frame as a header and the payload (or one merged buffer).
 */
const frameOf = (ws as unknown as { Sender: { frame(this: void, data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] } }).Sender.frame;
/** RFC 6455 §5.2: opcode of a text frame. */
const TEXT_OPCODE = 1;

/** The frames of `texts`, back to back in one buffer, and where each frame starts. */
function framesOf(texts: string[]): { buf: Buffer; starts: number[] } {
  const parts: Buffer[] = [];
  const starts: number[] = [];
  let at = 0;
  for (const text of texts) {
    starts.push(at);
    for (const part of frameOf(Buffer.from(text), { fin: true, opcode: TEXT_OPCODE, mask: false, readOnly: true, rsv1: false })) {
      parts.push(part);
      at += part.length;
    }
  }
  return { buf: Buffer.concat(parts, at), starts };
}

interface Member {
  socket: HubSocket;
  sessionId: string | null;
  /** Index in its channel's `texts` of the first text for this socket (it joined after the earlier ones). */
  from: number;
}

interface Channel {
  members: Set<Member>;
  /** Texts published to the channel this turn, in publish order; written at the next flush. */
  texts: string[];
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
  private readonly channels = new Map<string, Channel>();
  private relay: HubRelay | null = null;
  /** Channels with texts queued; flushed together on the next turn of the event loop. */
  private readonly dirty = new Set<Channel>();
  private flushScheduled = false;

  /** Sets (or, with null, removes) the relay to other instances. */
  setRelay(relay: HubRelay | null): void {
    this.relay = relay;
  }

  /** Adds a socket to its tenant's channel; returns the function that removes it. */
  join(tenantId: string, socket: HubSocket, sessionId: string | null = null): () => void {
    let channel = this.channels.get(tenantId);
    if (!channel) {
      channel = { members: new Set(), texts: [] };
      this.channels.set(tenantId, channel);
    }
    // Messages already published this turn were not for this socket.
    const member: Member = { socket, sessionId, from: channel.texts.length };
    channel.members.add(member);
    return () => {
      const c = this.channels.get(tenantId);
      if (!c) return;
      c.members.delete(member);
      if (c.members.size === 0) {
        this.channels.delete(tenantId);
        this.dirty.delete(c);
      }
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
    const channel = this.channels.get(tenantId);
    if (!channel) return 0;
    let open = 0;
    // A socket not open now never opens again (ws: CLOSING, CLOSED); the flush skips it too.
    for (const m of channel.members) if (m.socket.readyState === OPEN) open++;
    if (open === 0) return 0;
    channel.texts.push(JSON.stringify(message));
    this.dirty.add(channel);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return open;
  }

  /**
   * Writes every queued text now: per channel, the turn's frames built once and written to each
   * socket in one write (see the module comment). Called on the turn after a publish; callable
   * directly (tests, shutdown).
   */
  flush(): void {
    this.flushScheduled = false;
    const channels = [...this.dirty];
    this.dirty.clear();
    for (const channel of channels) {
      const texts = channel.texts;
      channel.texts = [];
      let frames: { buf: Buffer; starts: number[] } | null = null;
      for (const m of channel.members) {
        const from = m.from;
        m.from = 0;
        if (from >= texts.length || m.socket.readyState !== OPEN) continue;
        const tcp = (m.socket as { _socket?: Partial<TcpSocket> })._socket;
        const corkable = tcp && typeof tcp.cork === "function" && typeof tcp.uncork === "function" ? (tcp as TcpSocket) : null;
        try {
          if (corkable?.write && m.socket.extensions === "") {
            frames ??= framesOf(texts);
            corkable.write(from === 0 ? frames.buf : frames.buf.subarray(frames.starts[from]));
            continue;
          }
          corkable?.cork();
          try {
            for (let i = from; i < texts.length; i++) m.socket.send(texts[i]!);
          } finally {
            corkable?.uncork();
          }
        } catch {
          // A socket that fails to send is closing; its close handler removes it.
        }
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
    for (const channel of this.channels.values()) {
      for (const m of channel.members) if (m.sessionId === sessionId) m.socket.close(4001, "session revoked");
    }
  }

  /** Open sockets of a tenant. */
  size(tenantId: string): number {
    return this.channels.get(tenantId)?.members.size ?? 0;
  }
}
