// The certificate and key of --tls-cert/--tls-key, read and checked before Bun is given them:
// Bun.serve takes any text as PEM, so a wrong file would surface only as failed handshakes.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface TlsPair {
  /** PEM text as read: the leaf certificate first, then any intermediates. */
  cert: string;
  key: string;
  /** Of the leaf certificate, for the log line that says which one is served. */
  subject: string;
  serial: string;
  fingerprint256: string;
  validTo: Date;
}

/** A certificate or key file that cannot serve: the message names the flag and the file. */
export class TlsFileError extends Error {}

function readText(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new TlsFileError(`${flag} ${file} cannot be read: ${(err as Error).message}`);
  }
}

/** Reads both files and checks that they hold a PEM certificate and the unencrypted PEM private key of it. */
export function readTlsPair(certFile: string, keyFile: string): TlsPair {
  const cert = readText('--tls-cert', certFile);
  const key = readText('--tls-key', keyFile);
  let x509: X509Certificate;
  try {
    if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no -----BEGIN CERTIFICATE----- block');
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsFileError(`--tls-cert ${certFile} is not a PEM certificate (${(err as Error).message})`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    if (!/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(key)) throw new Error('no -----BEGIN PRIVATE KEY----- block');
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new TlsFileError(`--tls-key ${keyFile} is not an unencrypted PEM private key (${(err as Error).message})`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new TlsFileError(`--tls-key ${keyFile} is not the private key of the certificate in --tls-cert ${certFile}`);
  return { cert, key, subject: x509.subject.replaceAll('\n', ', '), serial: x509.serialNumber, fingerprint256: x509.fingerprint256, validTo: new Date(x509.validTo) };
}

/** What the log says of the certificate being served. */
export function describePair(pair: TlsPair, nowMs: number): string {
  const expiry = pair.validTo.getTime() <= nowMs ? `EXPIRED on ${pair.validTo.toISOString()}` : `valid until ${pair.validTo.toISOString()}`;
  return `certificate ${pair.subject}, serial ${pair.serial}, ${expiry}`;
}
