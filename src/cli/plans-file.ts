// Loads the plans table: the built-in one, or an operator's JSON file validated at start.
import { readFileSync } from 'node:fs';
import { BUILT_IN_PLANS, parsePlans, type Plan } from '../domain/plans.ts';
import { UsageError } from '../config.ts';

export function loadPlans(file: string | null): readonly Plan[] {
  if (file === null) return BUILT_IN_PLANS;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read plans file ${file}: ${(err as Error).message}`);
  }
  const parsed = parsePlans(json);
  if ('errors' in parsed) throw new UsageError(`plans file ${file} is not valid:\n  ${parsed.errors.join('\n  ')}`);
  return parsed.plans;
}
