// The environment of an `mds` a test starts as a child process.

/**
 * Settings every test server gets, whatever the host: the free-disk check is off, so a nearly full
 * disk on the machine running the suite does not turn `/health` degraded or add a warning to the
 * log. Tests of the check pass `--min-free-disk` themselves (a flag wins over the environment).
 */
export const TEST_SERVER_ENV: Readonly<Record<string, string>> = { MDS_MIN_FREE_DISK: '0' };

/** The flags with the same effect, for servers configured from arguments alone. */
export const TEST_SERVER_ARGS: readonly string[] = ['--min-free-disk', '0'];

/** The test runner's environment without its MDS_* variables, plus the test server settings. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MDS_') && v !== undefined) env[k] = v;
  return { ...env, ...TEST_SERVER_ENV };
}
