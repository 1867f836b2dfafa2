// A local port nothing listens on, for tests of a store server that does not answer: one the
// system just handed out and took back, so connecting to it is refused (fetch refuses port 1 outright).

import net from 'node:net';

export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
