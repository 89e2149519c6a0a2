/** How a served lab (`lab --serve`, `lab --replay --serve`) waits for its end. */

/** Resolves on SIGINT or SIGTERM (or the abort signal), whichever comes first. */
export function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
