import type { ServerResponse } from 'node:http';

/**
 * Whether the answer of `res` is written out whole (ask before or after `res.end`): true on its
 * `finish` (the last byte handed to the socket) while the connection still stands;
 * false when it closed first. Node emits `finish` also for an answer whose connection
 * was reset while part of it still waited in the socket's buffer (the buffer is dropped
 * and the write called back), so a connection destroyed by then means not written.
 * Two listeners, where `stream.finished` would add half a dozen per call (and reports
 * that reset answer as finished).
 */
export function written(res: ServerResponse): Promise<boolean> {
  // `res.socket` is detached by the server's own `finish` listener, which runs first.
  const socket = res.socket;
  const standing = () => socket === null || !socket.destroyed;
  if (res.writableFinished) return Promise.resolve(standing());
  return new Promise((resolve) => {
    const onFinish = () => {
      res.off('close', onClose);
      resolve(standing());
    };
    const onClose = () => {
      res.off('finish', onFinish);
      resolve(res.writableFinished && standing());
    };
    res.once('finish', onFinish);
    res.once('close', onClose);
  });
}
