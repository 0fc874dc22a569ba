/**
 * Per-tenant socket channels for /ws (spec §4). A socket joins exactly one tenant channel when it
 * authenticates; `publish` serialises a message once and sends it to that tenant's sockets only.
 * Sending is deferred and coalesced (issue 15, goal 7): messages published during one turn of the
 * event loop are queued per tenant channel and written later, never inside the publishing request
 * (a master's signal: 1 + N messages, so its 201 leaves first). Every socket of a channel receives
 * the same frames, so the frames of a flush are built ONCE per channel — one buffer of WebSocket
 * text frames (ws's own `Sender.frame`) — and each socket gets one write of that buffer (a socket
 * that joined meanwhile gets the tail published after it joined).
 * - **Coalesced per tick:** a flush starts on the next turn when the last one started at least
 *   `coalesceMs` ago, or when an URGENT message is queued (a signal's life: `new_signal`,
 *   `signal_updated`, `trade_closed`; the copy switch: `tenant_updated`) — these are never held
 *   back. Otherwise (execution results, audit entries, account heartbeats, sync summaries) it
 *   starts once that much time has passed since the last, so the messages of those milliseconds
 *   (a signal's orders handed out and reported a few ms after it) share one write per socket,
 *   usually the next signal's. Measured with 500 sockets: each write is a syscall that wakes the
 *   reader, and they were most of the server's time.
 * - **A turn at a time:** a flush writes at most `socketsPerTurn` sockets per turn of the event
 *   loop and yields between them, so a request arriving meanwhile (the next master signal) is
 *   read and sent to the database while the fan-out continues, not after 500 writes. The next
 *   flush starts only when this one is done: each socket's frames stay in publish order.
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
  /** Texts published to the channel since the last flush took them, in publish order. */
  texts: string[];
}

/** One channel's share of a flush: its texts, their frames (built on first need), its members then. */
interface ChannelFlush {
  channel: Channel;
  texts: string[];
  frames: { buf: Buffer; starts: number[] } | null;
  members: { member: Member; from: number }[];
}

/** A flush under way: the channels it took, and where it is (channel, member). */
interface FlushJob {
  parts: ChannelFlush[];
  part: number;
  index: number;
}

const OPEN = 1;

/** Default: a flush of non-urgent messages at most every 25 ms (see the module comment). */
export const DEFAULT_COALESCE_MS = 25;
/** Messages that start a flush on the next turn whatever the last flush's time. */
const URGENT: ReadonlySet<ServerMessage["type"]> = new Set(["new_signal", "signal_updated", "trade_closed", "tenant_updated"]);
/** Default: sockets written per turn of the event loop before yielding. */
export const DEFAULT_SOCKETS_PER_TURN = 64;

/** Passes what happens here on to the other instances (set by realtime/cluster.ts). */
export interface HubRelay {
  /** A message published here. */
  publish(tenantId: string, message: ServerMessage): void;
  /** A session revoked here: its sockets elsewhere close too. */
  closeSession(tenantId: string, sessionId: string): void;
}

export interface HubOptions {
  /** ms: least time between the starts of two flushes without an urgent message (0: every turn). */
  coalesceMs?: number;
  /** Sockets written per turn of the event loop (≥ 1). */
  socketsPerTurn?: number;
}

export class RealtimeHub {
  private readonly channels = new Map<string, Channel>();
  private relay: HubRelay | null = null;
  /** Channels with texts queued, for the next flush. */
  private readonly dirty = new Set<Channel>();
  /** The timer of a coalesced flush, when one is pending. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A flush is due on the next turn (setImmediate pending). */
  private immediate = false;
  /** An urgent message is queued: the next flush starts on the next turn. */
  private urgent = false;
  /** The flush under way, written a turn at a time. */
  private job: FlushJob | null = null;
  /** performance.now() (the global: fake timers replace it in tests) when the last flush started. */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private readonly coalesceMs: number;
  private readonly socketsPerTurn: number;

  constructor(opts: HubOptions = {}) {
    this.coalesceMs = Math.max(0, opts.coalesceMs ?? DEFAULT_COALESCE_MS);
    this.socketsPerTurn = Math.max(1, Math.floor(opts.socketsPerTurn ?? DEFAULT_SOCKETS_PER_TURN));
  }

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
    // Messages already queued were not for this socket.
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
   * Queues `message` for this instance's open sockets of `tenantId` only (written by a later
   * flush, see the module comment); returns how many sockets it was queued for.
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
    if (URGENT.has(message.type)) this.urgent = true;
    this.schedule();
    return open;
  }

  /**
   * Schedules the next flush: on the next turn when an urgent message is queued or the last flush
   * started `coalesceMs` ago, else by a timer for then. A flush under way schedules at its end.
   */
  private schedule(): void {
    if (this.job !== null || this.dirty.size === 0) return;
    const wait = this.urgent ? 0 : this.lastFlushAt + this.coalesceMs - performance.now();
    if (wait > 0) {
      if (this.timer === null && !this.immediate) this.timer = setTimeout(() => this.start(), wait);
      return;
    }
    if (this.immediate) return;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.immediate = true;
    setImmediate(() => this.start());
  }

  /** Starts a flush of what is queued (unless one is under way) and writes its first turn. */
  private start(): void {
    this.immediate = false;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.job !== null || this.dirty.size === 0) return;
    this.job = this.take();
    this.proceed();
  }

  /** Writes a turn's share of the flush under way; yields a turn while sockets remain. */
  private proceed(): void {
    const job = this.job;
    if (job === null) return; // finished by flush() meanwhile
    if (this.write(job, this.socketsPerTurn)) {
      this.job = null;
      this.schedule();
    } else {
      setImmediate(() => this.proceed());
    }
  }

  /** Takes the dirty channels' texts (and their members as they are now) into a new flush. */
  private take(): FlushJob {
    const parts: ChannelFlush[] = [];
    for (const channel of this.dirty) {
      const members = [...channel.members].map((member) => {
        const from = member.from;
        member.from = 0;
        return { member, from };
      });
      parts.push({ channel, texts: channel.texts, frames: null, members });
      channel.texts = [];
    }
    this.dirty.clear();
    this.urgent = false;
    this.lastFlushAt = performance.now();
    return { parts, part: 0, index: 0 };
  }

  /** Writes up to `limit` sockets of `job`; returns true when the job is done. */
  private write(job: FlushJob, limit: number): boolean {
    let written = 0;
    while (job.part < job.parts.length) {
      const part = job.parts[job.part]!;
      while (job.index < part.members.length) {
        if (written >= limit) return false;
        const { member, from } = part.members[job.index++]!;
        // Left the channel, or no longer open, since the flush took it: nothing to write.
        if (from >= part.texts.length || !part.channel.members.has(member) || member.socket.readyState !== OPEN) continue;
        written++;
        this.writeTo(member.socket, part, from);
      }
      job.part++;
      job.index = 0;
    }
    return true;
  }

  /** One socket's share: the channel's shared frames in one write, or its own sends, corked. */
  private writeTo(socket: HubSocket, part: ChannelFlush, from: number): void {
    const tcp = (socket as { _socket?: Partial<TcpSocket> })._socket;
    const corkable = tcp && typeof tcp.cork === "function" && typeof tcp.uncork === "function" ? (tcp as TcpSocket) : null;
    try {
      if (corkable?.write && socket.extensions === "") {
        part.frames ??= framesOf(part.texts);
        corkable.write(from === 0 ? part.frames.buf : part.frames.buf.subarray(part.frames.starts[from]));
        return;
      }
      corkable?.cork();
      try {
        for (let i = from; i < part.texts.length; i++) socket.send(part.texts[i]!);
      } finally {
        corkable?.uncork();
      }
    } catch {
      // A socket that fails to send is closing; its close handler removes it.
    }
  }

  /**
   * Writes everything queued now, synchronously: the rest of a flush under way, then what was
   * published since (tests, shutdown). A scheduled step that runs later finds nothing to do.
   */
  flush(): void {
    if (this.job !== null) this.write(this.job, Number.POSITIVE_INFINITY);
    this.job = null;
    if (this.dirty.size > 0) this.write(this.take(), Number.POSITIVE_INFINITY);
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
