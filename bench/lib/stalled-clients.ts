// Deliberately slow clients for the fan-out bench: N WebSocket connections over node:net that
// subscribe like the fast ones, then stop reading (the socket is paused), so what the server sends
// them piles up in their kernel buffers and then in the server's. They never read again.
// Protocol with the runner: argv[2] is `{"port", "key", "connections", "query", "subscribe"}`;
// prints `STALLED <n> <session ids, comma-separated>` once every connection has its ack and is
// paused; stops on SIGTERM.
import { connect, type Socket } from 'node:net';

interface Config {
  port: number;
  key: string;
  connections: number;
  query: string;
  subscribe: string;
}
const config = JSON.parse(process.argv[2] ?? '{}') as Config;

function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([header, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]);
}

/** Connects, subscribes on the ready frame, pauses on the ack. */
function stall(): Promise<{ socket: Socket; sessionId: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(config.port, '127.0.0.1');
    let seen = '';
    let subscribed = false;
    socket.once('error', reject);
    socket.on('connect', () => {
      socket.write(`GET /?apiKey=${encodeURIComponent(config.key)}${config.query} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      if (subscribed) return;
      // Only the first frames matter (ready, then the ack): a text search is enough.
      seen += chunk.toString('latin1');
      if (seen.includes('"type":"ready"') && !seen.includes('SENT')) {
        seen += 'SENT';
        socket.write(maskedText(config.subscribe));
      }
      if (seen.includes('"type":"subscribed"')) {
        subscribed = true;
        socket.pause();
        resolve({ socket, sessionId: /"session_id":"([^"]+)"/.exec(seen)?.[1] ?? '?' });
      }
    });
  });
}

const stalled: { socket: Socket; sessionId: string }[] = [];
for (let i = 0; i < config.connections; i += 25) {
  stalled.push(...(await Promise.all(Array.from({ length: Math.min(25, config.connections - i) }, stall))));
}
console.log(`STALLED ${stalled.length} ${stalled.map((s) => s.sessionId).join(',')}`);

// Never outlive the bench runner.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000);
process.on('SIGTERM', () => process.exit(0));
