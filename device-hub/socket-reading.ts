import type { Duplex } from 'node:stream';

/** The part of a net.Socket's libuv handle (TCPWrap, or the TLSWrap over it) that reads from the kernel. */
interface ReadingHandle {
  /** Node's own record of whether the handle reads; its `_read` starts the handle when this is false. */
  reading: boolean;
  readStart(): number;
  readStop(): number;
}

/** Sockets whose handle stopReading stopped, until readAgain starts it. */
const stopped = new WeakSet<Duplex>();

function readingHandleOf(socket: Duplex): ReadingHandle | null {
  const handle = (socket as Duplex & { _handle?: Partial<ReadingHandle> | null })._handle;
  if (!handle || typeof handle.readStart !== 'function' || typeof handle.readStop !== 'function' || typeof handle.reading !== 'boolean') {
    return null;
  }
  return handle as ReadingHandle;
}

/**
 * Stops reading the socket at its handle: nothing more leaves the kernel's receive buffer, so
 * TCP's window closes and the peer keeps what it sends. A paused stream alone (what
 * `socket.pause()` does for a socket Node created without `onread`) goes on reading into its
 * readable buffer up to the high-water mark (16 KiB) plus one read of up to 64 KiB, which a
 * server with 10,000 paused gateways pays 10,000 times. Node stops the handle the same way for
 * a socket its HTTP parser holds, and for one made with `onread`.
 *
 * Node's `reading` flag is left true (set true): Node's `_read` starts a handle it believes
 * stopped, and the stream calls it right after the chunk being handled when that chunk's
 * handling is what stopped reading. Call with the stream paused (ws's `pause()`); undo with
 * readAgain. A socket without such a handle only has its stream paused by the caller.
 */
export function stopReading(socket: Duplex): void {
  const handle = readingHandleOf(socket);
  if (!handle || socket.destroyed || stopped.has(socket)) {
    return;
  }
  const error = handle.readStop();
  if (error !== 0) {
    return;
  }
  handle.reading = true;
  stopped.add(socket);
}

/**
 * Starts the handle stopReading stopped; the stream reads again once resumed (ws's `resume()`).
 * Over TLS, what OpenSSL had already taken from TCP is still decrypted and pushed after the
 * stop, and Node may stop the handle itself meanwhile (its readable buffer full): the handle
 * is stopped first, so that it is started exactly once, and Node's flag says so.
 */
export function readAgain(socket: Duplex): void {
  if (!stopped.delete(socket)) {
    return;
  }
  const handle = readingHandleOf(socket);
  if (!handle || socket.destroyed) {
    return;
  }
  handle.readStop();
  const error = handle.readStart();
  if (error !== 0) {
    socket.destroy(new Error(`reading the socket again failed (libuv error ${error})`));
    return;
  }
  handle.reading = true;
}
