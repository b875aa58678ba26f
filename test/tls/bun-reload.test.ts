// Why src/cli/listeners.ts swaps listeners for a new certificate: Bun's server.reload() takes a
// `tls` option without applying it (Bun 1.4.4; oven-sh/bun#43815). Should a Bun upgrade apply it,
// this fails, and the swap could become a reload.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { tempDir } from '../support/temp-dir.ts';
import { makeCertificate } from './certificate.ts';

function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

test("Bun's server.reload({ tls }) swaps the handler but keeps serving the old certificate", async () => {
  using dir = tempDir('mds-tls-bun-');
  const a = makeCertificate(dir.path, 'a');
  const b = makeCertificate(dir.path, 'b');
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert: a.cert, key: readFileSync(a.keyFile, 'utf8') }, fetch: () => new Response('before') });
  try {
    server.reload({ tls: { cert: b.cert, key: readFileSync(b.keyFile, 'utf8') }, fetch: () => new Response('after') } as Parameters<typeof server.reload>[0]);
    const res = await fetch(`https://127.0.0.1:${server.port}/`, { tls: { rejectUnauthorized: false } });
    expect(await res.text()).toBe('after');
    expect(await servedFingerprint(server.port!)).toBe(a.fingerprint256);
  } finally {
    await server.stop(true);
  }
});
