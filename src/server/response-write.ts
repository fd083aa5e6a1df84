/**
 * Writing a streamed HTTP response with TCP backpressure: a client that stops reading pauses
 * the writer, so what it has not read stays where it is bounded (a follower queue, an export
 * cursor), not in the socket's buffer.
 */
import type { ServerResponse } from 'node:http';

/**
 * Writes `chunk`; resolves at once when the socket takes more, else once it drains or the
 * client left (`close`: the caller checks whether to go on).
 */
export function writeWithBackpressure(
  res: ServerResponse,
  chunk: string | Uint8Array,
): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
