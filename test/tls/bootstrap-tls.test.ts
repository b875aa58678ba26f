// A new edge with --tls-cert answers its bootstrapping /health over https on the port, as the
// server that takes the port over afterwards does (a load balancer's https check sees 503, not a
// failed handshake).
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { BootstrapServer } from '../../src/cluster/bootstrap-server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { makeCertificate } from './certificate.ts';

test('the bootstrapping port speaks https with the given pair', async () => {
  using dir = tempDir('mds-tls-boot-');
  const cert = makeCertificate(dir.path, 'edge');
  const server = new BootstrapServer('127.0.0.1', 0, '9.9.9', () => ({ state: 'waiting', waitedS: 3, timeoutS: 600, bytes: 0, totalBytes: null, lastError: null }), { cert: cert.cert, key: readFileSync(cert.keyFile, 'utf8') });
  try {
    const res = await fetch(`https://127.0.0.1:${server.port}/health`, { tls: { ca: cert.cert } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { status: string }).status).toBe('bootstrapping');
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
  } finally {
    await server.stop();
  }
});
