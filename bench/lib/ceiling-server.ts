// The ceiling: a bare Bun.serve that answers every request with one prebuilt JSON body (read
// from the file given as the first argument). No routing, no key check, no serialization — what
// a Bun HTTP handler costs by itself on this machine. Run by bench/lib/ceiling.ts.
// With `--contract` it also does what the interface asks of every answer and nothing else: reads
// the `x-api-key` request header and sends the per-request response headers our routes send
// (X-Request-Id, X-RateLimit-Limit/-Remaining/-Reset). That is the floor any route of ours has.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: bun bench/lib/ceiling-server.ts BODY_FILE [--contract]\n');
  process.exit(2);
}
const body = new Uint8Array(readFileSync(file));
const headers = { 'content-type': 'application/json' };
const contract = process.argv.includes('--contract');
let served = 0;
const LIMIT = 1_000_000_000;
const reset = String(Math.ceil(Date.now() / 60_000) * 60);

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: contract
    ? (request) => {
        if (request.headers.get('x-api-key') === null) return new Response(null, { status: 401 });
        served++;
        return new Response(body, {
          headers: { 'content-type': 'application/json', 'x-request-id': `ceiling-${served.toString(36)}`, 'x-ratelimit-limit': String(LIMIT), 'x-ratelimit-remaining': String(LIMIT - served), 'x-ratelimit-reset': reset },
        });
      }
    : () => new Response(body, { headers }),
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
