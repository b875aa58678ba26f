// The ceiling: a bare Bun.serve that answers every request with one prebuilt JSON body (read
// from the file given as the only argument). No routing, no key check, no serialization — what
// a Bun HTTP handler costs by itself on this machine. Run by bench/lib/ceiling.ts.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: bun bench/lib/ceiling-server.ts BODY_FILE\n');
  process.exit(2);
}
const body = new Uint8Array(readFileSync(file));
const headers = { 'content-type': 'application/json' };

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch() {
    return new Response(body, { headers });
  },
});
console.log(`ceiling listening on ${server.port} (${body.length} bytes)`);

const stop = () => {
  void server.stop(true).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Never outlive the bench runner, even if it was killed without a chance to clean up.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();
