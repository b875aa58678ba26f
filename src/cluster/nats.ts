// The NATS connection of an ingest or edge node: the servers of --nats, credentials and TLS from
// their flags, reconnecting for ever (a NATS outage is waited out, not fatal), and the JetStream
// names every node agrees on. One home for them, so ingest and edge cannot drift apart.
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection, type ConnectionOptions } from '@nats-io/transport-node';
import type { ServeConfig } from '../config.ts';

/** JetStream stream of consolidated ticks, bar-seal sweeps, sealed bars and symbols, in the order the ingest node made them. */
export const TICKS_STREAM = 'MDS_TICKS';
/** `mds.tick.<class>`: a batch of one class's ticks (one message per class per publish cycle, not per tick). */
export const TICK_SUBJECT_PREFIX = 'mds.tick';
/** The time of each sweep that sealed due bars: an edge seals at the same instants. */
export const SWEEP_SUBJECT = 'mds.sweep';
/** `mds.bar.<class>.<symbol>`: each sealed 1-minute bar, for edges to check their own against. */
export const BAR_SUBJECT_PREFIX = 'mds.bar';
/** `mds.symbol.<class>.<symbol>`: a symbol's registry entry, before its first tick of an ingest run. */
export const SYMBOL_SUBJECT_PREFIX = 'mds.symbol';
/** `mds.history.<kind>`: rows the ingest node wrote outside the live path (imports, gap filling), as stored after the write. */
export const HISTORY_SUBJECT_PREFIX = 'mds.history';
/** Every subject of TICKS_STREAM. */
export const TICKS_STREAM_SUBJECTS = [`${TICK_SUBJECT_PREFIX}.>`, SWEEP_SUBJECT, `${BAR_SUBJECT_PREFIX}.>`, `${SYMBOL_SUBJECT_PREFIX}.>`, `${HISTORY_SUBJECT_PREFIX}.>`];
/** KV bucket of API keys (records without secrets: hash, plan, markets, add-ons, revocation). */
export const KEYS_BUCKET = 'mds_keys';
/** KV bucket of quota leases: per key and quota window, the calls leased to nodes so far. */
export const QUOTA_BUCKET = 'mds_quota';
/** KV bucket of per-minute leases; its entries expire within minutes (a TTL bucket of its own). */
export const MINUTES_BUCKET = 'mds_quota_minutes';
/** Object store bucket of store snapshots for new edges. */
export const SNAPSHOT_BUCKET = 'mds_snapshots';

/** A subject token cannot hold '.', '*', '>' or whitespace: symbols are written with their safe escapes. */
export function subjectToken(symbol: string): string {
  return symbol.replace(/[.*>\s%]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function tickSubject(assetClass: string): string {
  return `${TICK_SUBJECT_PREFIX}.${assetClass}`;
}

export function barSubject(assetClass: string, symbol: string): string {
  return `${BAR_SUBJECT_PREFIX}.${assetClass}.${subjectToken(symbol)}`;
}

export function symbolSubject(assetClass: string, symbol: string): string {
  return `${SYMBOL_SUBJECT_PREFIX}.${assetClass}.${subjectToken(symbol)}`;
}

export type NatsSettings = Pick<ServeConfig, 'nats' | 'natsCreds' | 'natsTlsCa' | 'natsTlsCert' | 'natsTlsKey'>;

/** The client options the flags give (credentials and certificates read now: a bad path fails at start). */
export function natsOptions(settings: NatsSettings, name: string): ConnectionOptions {
  if (settings.nats === null) throw new Error('no NATS servers configured (--nats)');
  const opts: ConnectionOptions = {
    servers: settings.nats.split(','),
    name,
    // Never give up: an outage of the NATS servers is waited out, and the node resumes where it was.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
  };
  if (settings.natsCreds !== null) opts.authenticator = credsAuthenticator(readFileSync(settings.natsCreds));
  if (settings.natsTlsCa !== null || settings.natsTlsCert !== null) {
    opts.tls = {
      ...(settings.natsTlsCa !== null && { caFile: settings.natsTlsCa }),
      ...(settings.natsTlsCert !== null && { certFile: settings.natsTlsCert }),
      ...(settings.natsTlsKey !== null && { keyFile: settings.natsTlsKey }),
    };
  }
  return opts;
}

/** Connects to the NATS servers; rejects with a message naming them when none answers within `timeoutMs`. */
export async function connectNats(settings: NatsSettings, name: string, timeoutMs = 10_000): Promise<NatsConnection> {
  const opts = { ...natsOptions(settings, name), timeout: timeoutMs, waitOnFirstConnect: false };
  try {
    return await connect(opts);
  } catch (err) {
    throw new Error(`cannot connect to NATS at ${settings.nats}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
