/**
 * The PostgreSQL connections' socket: the writes made in one run of the code and the microtasks
 * it queues leave in ONE `writev` instead of one per statement.
 *
 * node-postgres with `pipeline: true` sends each statement as soon as it is queued, corking the
 * socket only around that statement's own messages (Parse/Bind/Describe/Execute/Sync), so a
 * transaction that sends its lock and loads together, or its record with COMMIT, costs one
 * `writev` per statement; on a loopback connection each one also runs the receiving side's TCP
 * path inside the system call (about 12 % of the server's CPU samples at 10 slaves — the issue's
 * profile named it first). Here the first write of a turn corks the socket and a `process.nextTick`
 * uncorks it: the tick runs once the current microtask queue has drained, so every statement
 * queued by the same chain of continuations goes out together, in order, before any I/O callback
 * runs. Nothing waits for a timer: the delay is the rest of the current turn's synchronous work.
 */
import net from "node:net";

/** A socket for node-postgres's `stream` option (one per connection), its writes coalesced per turn. */
export function coalescingStream(): net.Socket {
  const socket = new net.Socket();
  let corkedForTurn = false;
  const uncork = () => {
    corkedForTurn = false;
    socket.uncork();
  };
  // Installed once connected: net.Socket's connect() resets `write` to its prototype's. First
  // among the 'connect' listeners, so the startup message already goes through it.
  socket.prependOnceListener("connect", () => {
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((...args: unknown[]) => {
      if (!corkedForTurn && !socket.destroyed) {
        corkedForTurn = true;
        socket.cork();
        process.nextTick(uncork);
      }
      return write(...args);
    });
  });
  return socket;
}
