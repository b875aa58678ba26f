// A TCP proxy in front of a test server, so a test can do to a client's connections what a network
// does: cut them, refuse new ones, go silent without closing, or stop reading the server's side
// (so the server's unsent bytes pile up, as behind a slow link).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy extends AsyncDisposable {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Destroys every open connection, both sides: the client sees its TCP connection end. */
  sever(): void;
  /** Closes new connections at once (as an unreachable host would) until allow(). */
  refuse(): void;
  allow(): void;
  /** Open connections carry nothing more in either direction, and stay open: a silent socket. */
  freeze(): void;
  /** Stops reading what the server sends on open connections, until resumeUpstream(). */
  pauseUpstream(): void;
  resumeUpstream(): void;
}

interface Link {
  client: Socket;
  upstream: Socket;
  frozen: boolean;
}

export async function startProxy(targetPort: number): Promise<TcpProxy> {
  const links = new Set<Link>();
  let refusing = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted++;
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    const link: Link = { client, upstream, frozen: false };
    links.add(link);
    client.on('data', (chunk) => link.frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => link.frozen || client.write(chunk));
    const end = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const sever = () => {
    for (const link of links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    links.clear();
  };
  return {
    port: address.port,
    get accepted() {
      return accepted;
    },
    sever,
    refuse() {
      refusing = true;
    },
    allow() {
      refusing = false;
    },
    freeze() {
      for (const link of links) link.frozen = true;
    },
    pauseUpstream() {
      for (const link of links) link.upstream.pause();
    },
    resumeUpstream() {
      for (const link of links) link.upstream.resume();
    },
    async [Symbol.asyncDispose]() {
      sever();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
