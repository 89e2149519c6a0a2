/** Test servers on 127.0.0.1: listen on a free port, and close with every connection cut. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Cuts open connections (a keep-alive socket would hold `close` forever), then closes. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Loopback> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
