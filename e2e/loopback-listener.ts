/** A loopback TCP listener for the specs that prove a sandbox reaches nothing: it counts every connection made to it. */
import { createServer, type Server } from 'node:net';

export async function listen(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.end('HTTP/1.0 200 OK\r\n\r\nreached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => connections };
}
