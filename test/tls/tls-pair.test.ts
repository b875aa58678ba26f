// The key formats --tls-key takes (PKCS#8, SEC1 EC, PKCS#1 RSA, as openssl and certbot write them)
// are read, checked against the certificate and served by Bun; the log line says when a certificate
// has expired.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { describePair, readTlsPair } from '../../src/cli/tls-pair.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';
import { makeCertificate, type TestCertificate } from './certificate.ts';

let dir: TempDir;
let ec: TestCertificate;
beforeAll(() => {
  dir = tempDir('mds-tls-pair-');
  ec = makeCertificate(dir.path, 'ec');
});
afterAll(() => dir[Symbol.dispose]());

function openssl(...args: string[]): void {
  const r = Bun.spawnSync(['openssl', ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.toString()}`);
}

/** Reads the pair, then serves it with Bun.serve and checks a verified https request gets through. */
async function servesWith(certFile: string, keyFile: string, ca: string): Promise<number> {
  const pair = readTlsPair(certFile, keyFile);
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert: pair.cert, key: pair.key }, fetch: () => new Response('ok') });
  try {
    return (await fetch(`https://127.0.0.1:${server.port}/`, { tls: { ca } })).status;
  } finally {
    await server.stop(true);
  }
}

test('a PKCS#8 EC key (BEGIN PRIVATE KEY)', async () => {
  expect(await servesWith(ec.certFile, ec.keyFile, ec.cert)).toBe(200);
});

test('the same key as SEC1 (BEGIN EC PRIVATE KEY)', async () => {
  const sec1 = join(dir.path, 'ec-sec1.key');
  openssl('ec', '-in', ec.keyFile, '-out', sec1);
  expect(await Bun.file(sec1).text()).toStartWith('-----BEGIN EC PRIVATE KEY-----');
  expect(await servesWith(ec.certFile, sec1, ec.cert)).toBe(200);
});

test('an RSA key as PKCS#1 (BEGIN RSA PRIVATE KEY)', async () => {
  const certFile = join(dir.path, 'rsa.crt');
  const keyFile = join(dir.path, 'rsa.key');
  const pkcs1 = join(dir.path, 'rsa-pkcs1.key');
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile);
  openssl('rsa', '-in', keyFile, '-traditional', '-out', pkcs1);
  expect(await Bun.file(pkcs1).text()).toStartWith('-----BEGIN RSA PRIVATE KEY-----');
  expect(await servesWith(certFile, pkcs1, await Bun.file(certFile).text())).toBe(200);
});

test('the log line gives subject, serial and expiry, and says EXPIRED once past it', () => {
  const pair = readTlsPair(ec.certFile, ec.keyFile);
  expect(pair.serial).toBe(ec.serial);
  expect(pair.fingerprint256).toBe(ec.fingerprint256);
  const before = pair.validTo.getTime() - 1;
  expect(describePair(pair, before)).toBe(`certificate CN=localhost, serial ${ec.serial}, valid until ${pair.validTo.toISOString()}`);
  expect(describePair(pair, pair.validTo.getTime())).toBe(`certificate CN=localhost, serial ${ec.serial}, EXPIRED on ${pair.validTo.toISOString()}`);
});
