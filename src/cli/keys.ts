// `mds keys`: create, list, show, update and revoke API keys in a data dir — also while a server
// runs on it (the server picks changes up within a second). A key's secret is printed once.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { KeyRecord } from '../domain/account.ts';
import { ADDONS, planOffersMarket, type Addon, type Plan } from '../domain/plans.ts';
import { listMarkets } from '../market/index.ts';
import { Store } from '../store/index.ts';
import { systemClock } from '../clock.ts';
import { UsageError } from '../config.ts';
import { loadPlans } from './plans-file.ts';

export const KEYS_HELP = `Usage: mds keys <command> [options]

Manage API keys in a data dir (works while the server runs; it sees changes within a second).

Commands:
  create --plan PLAN [--markets US,DE|all] [--addons fundamentals,bonds,overnight] [--name TEXT]
                     make a key; its secret is printed once and stored only as a hash
  list               every key (never the secrets)
  show ID            one key with its usage in the current quota window
  update ID [--plan PLAN] [--markets ...] [--addons ...] [--name TEXT]
  revoke ID          the key stops working (401 "API key revoked")

Options:
  --data-dir DIR     the data dir (default ./data, env MDS_DATA_DIR)
  --plans FILE       plans table to check against (default: built in, env MDS_PLANS)
  --json             machine-readable output
  -h, --help         this text
`;

const OPTIONS = {
  plan: { type: 'string' },
  markets: { type: 'string' },
  addons: { type: 'string' },
  name: { type: 'string' },
  'data-dir': { type: 'string' },
  plans: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const STOCK_MARKETS = new Set(listMarkets().filter((m) => m.type === 'stocks').map((m) => m.market));

/** `--markets` for a key on `plan`: `all` is every market the plan offers; a market outside it is refused. */
function parseMarkets(raw: string, plan: Plan): string[] {
  const list = raw.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  if (list.length === 1 && (list[0] === 'ALL' || list[0] === '*')) return plan.markets ? [...plan.markets] : ['*'];
  const unknown = list.filter((m) => !STOCK_MARKETS.has(m));
  if (list.length === 0 || unknown.length > 0) throw new UsageError(`--markets: unknown market ${unknown.join(', ') || '(none)'}; known: ${[...STOCK_MARKETS].sort().join(', ')}, or all`);
  checkPlanMarkets(list, plan);
  return [...new Set(list)];
}

/** The markets of `markets` that `plan` does not offer (`all` for `*` on a plan with a market list). */
function marketsOutside(markets: readonly string[], plan: Plan): string[] {
  const outside = markets.filter((m) => m !== '*' && !planOffersMarket(plan, m));
  if (markets.includes('*') && plan.markets) outside.push('all');
  return outside;
}

function checkPlanMarkets(markets: readonly string[], plan: Plan): void {
  const outside = marketsOutside(markets, plan);
  if (outside.length > 0) throw new UsageError(`--markets: the ${plan.name} plan does not offer the market${outside.length > 1 ? 's' : ''} ${outside.join(', ')} (it offers: ${plan.markets!.join(', ')})`);
}

function parseAddons(raw: string, plan: Plan): Addon[] {
  const list = raw.split(',').map((a) => a.trim().toLowerCase()).filter(Boolean);
  for (const a of list) {
    if (!(ADDONS as readonly string[]).includes(a)) throw new UsageError(`--addons: unknown add-on ${JSON.stringify(a)}; add-ons are ${ADDONS.join(', ')}`);
    if (!plan.addons.includes(a as Addon)) throw new UsageError(`--addons: the ${plan.name} plan does not offer the ${a} add-on (it offers: ${plan.addons.join(', ') || 'none'})`);
  }
  return [...new Set(list)] as Addon[];
}

/** A key as shown to operators: never its hash. */
function describe(record: KeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    plan: record.plan,
    markets: record.markets,
    addons: record.addons,
    created: new Date(record.createdMs).toISOString(),
    revoked: record.revokedMs === null ? null : new Date(record.revokedMs).toISOString(),
  };
}

export async function runKeys(argv: string[], env: Record<string, string | undefined>, out: (text: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}\nRun 'mds keys --help' for the options.`);
  }
  const { values, positionals } = parsed;
  const [command, id, ...extra] = positionals;
  if (values.help || command === undefined) {
    out(KEYS_HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const plans = new Map(loadPlans(values.plans ?? env.MDS_PLANS ?? null).map((p) => [p.name, p]));
  const planNamed = (name: string) => {
    const plan = plans.get(name);
    if (!plan) throw new UsageError(`--plan: unknown plan ${JSON.stringify(name)}; plans are ${[...plans.keys()].join(', ')}`);
    return plan;
  };
  const needId = () => {
    if (!id) throw new UsageError(`'mds keys ${command}' needs a key id (see 'mds keys list')`);
    return id;
  };
  const store = Store.open({ dataDir: resolve(values['data-dir'] ?? env.MDS_DATA_DIR ?? './data') });
  try {
    const show = (record: KeyRecord, extraFields: Record<string, unknown> = {}) => {
      const view = { ...describe(record), ...extraFields };
      out(values.json ? `${JSON.stringify(view)}\n` : `${Object.entries(view).map(([k, v]) => `${k.padEnd(10)} ${Array.isArray(v) ? v.join(',') || '-' : (v ?? '-')}`).join('\n')}\n`);
    };
    switch (command) {
      case 'create': {
        if (!values.plan) throw new UsageError("'mds keys create' needs --plan (e.g. --plan free)");
        const plan = planNamed(values.plan);
        const markets = values.markets ? parseMarkets(values.markets, plan) : [plan.markets?.[0] ?? 'US'];
        const addons = values.addons ? parseAddons(values.addons, plan) : [];
        const { record, secret } = store.accounts.create({ name: values.name ?? '', plan: plan.name, markets, addons }, systemClock.nowMs());
        if (values.json) out(`${JSON.stringify({ ...describe(record), key: secret })}\n`);
        else {
          show(record);
          out(`key        ${secret}\n\nThe key is shown only now; mds keeps only its hash.\n`);
        }
        return 0;
      }
      case 'list': {
        const records = store.accounts.list();
        if (values.json) out(`${JSON.stringify(records.map(describe))}\n`);
        else if (records.length === 0) out('no keys yet: make one with mds keys create --plan free\n');
        else {
          out(`${'ID'.padEnd(18)} ${'PLAN'.padEnd(11)} ${'MARKETS'.padEnd(12)} ${'ADDONS'.padEnd(26)} ${'CREATED'.padEnd(20)} STATUS   NAME\n`);
          for (const r of records) {
            out(`${r.id.padEnd(18)} ${r.plan.padEnd(11)} ${(r.markets.join(',') || '-').padEnd(12)} ${(r.addons.join(',') || '-').padEnd(26)} ${new Date(r.createdMs).toISOString().slice(0, 19).padEnd(20)} ${(r.revokedMs === null ? 'active' : 'revoked').padEnd(8)} ${r.name}\n`);
          }
        }
        return 0;
      }
      case 'show': {
        const record = store.accounts.get(needId());
        if (!record) throw new UsageError(`no key ${JSON.stringify(id)}`);
        const plan = plans.get(record.plan);
        const windowMs = (plan?.quota_window_days ?? 30) * 86_400_000;
        const now = systemClock.nowMs();
        const windowStart = record.createdMs + Math.floor((now - record.createdMs) / windowMs) * windowMs;
        show(record, { used: store.accounts.usageOf(record.id, windowStart), quota: plan?.quota ?? null, window_ends: new Date(windowStart + windowMs).toISOString() });
        return 0;
      }
      case 'update': {
        const current = store.accounts.get(needId());
        if (!current) throw new UsageError(`no key ${JSON.stringify(id)}`);
        const plan = planNamed(values.plan ?? current.plan);
        // A new plan never silently carries add-ons it does not offer: the operator says what to keep.
        const orphans = values.addons === undefined ? current.addons.filter((a) => !plan.addons.includes(a)) : [];
        if (orphans.length > 0) {
          throw new UsageError(`--plan: the ${plan.name} plan does not offer the add-on${orphans.length > 1 ? 's' : ''} ${orphans.join(', ')} this key has; add --addons with the ones to keep (the ${plan.name} plan offers: ${plan.addons.join(', ') || 'none'}; --addons '' keeps none)`);
        }
        // Nor markets: a key moved to a plan with fewer markets keeps only what the operator names.
        const outside = values.markets === undefined ? marketsOutside(current.markets, plan) : [];
        if (outside.length > 0) {
          throw new UsageError(`--plan: the ${plan.name} plan does not offer the market${outside.length > 1 ? 's' : ''} ${outside.join(', ')} this key has; add --markets with the ones to keep (the ${plan.name} plan offers: ${plan.markets!.join(', ')})`);
        }
        const patch = {
          ...(values.plan !== undefined && { plan: plan.name }),
          ...(values.markets !== undefined && { markets: parseMarkets(values.markets, plan) }),
          ...(values.addons !== undefined && { addons: parseAddons(values.addons, plan) }),
          ...(values.name !== undefined && { name: values.name }),
        };
        if (Object.keys(patch).length === 0) throw new UsageError("'mds keys update' needs at least one of --plan, --markets, --addons, --name");
        show(store.accounts.update(current.id, patch)!);
        return 0;
      }
      case 'revoke': {
        const current = store.accounts.get(needId());
        if (!current) throw new UsageError(`no key ${JSON.stringify(id)}`);
        show(store.accounts.update(current.id, { revokedMs: current.revokedMs ?? systemClock.nowMs() })!);
        return 0;
      }
      default:
        throw new UsageError(`unknown keys command ${JSON.stringify(command)}; run 'mds keys --help'`);
    }
  } finally {
    await store.close();
  }
}
