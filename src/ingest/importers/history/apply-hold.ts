// A test hook that stops an import's apply at a chosen point, so a test can kill the applying
// process there (kill -9) and prove the import comes out whole or not at all. Set
// MDS_TEST_APPLY_HOLD=<file>:<blocks>: after that many staged blocks are merged and committed,
// while <file> exists, the apply writes <file>.held (the import's id) and waits for <file> to go.
import { existsSync, rmSync, writeFileSync } from 'node:fs';

export interface ApplyHold {
  /** Called after each block (and once before the first, with 0) once what is merged is committed. */
  afterBlocks(done: number, importId: number, commit: () => Promise<void>): Promise<void>;
}

/** The hold `MDS_TEST_APPLY_HOLD` asks for, or null (always, outside tests). */
export function applyHoldFromEnv(env: Record<string, string | undefined> = process.env): ApplyHold | null {
  const m = /^(.+):(\d+)$/.exec(env.MDS_TEST_APPLY_HOLD ?? '');
  if (!m) return null;
  const file = m[1]!;
  const at = Number(m[2]);
  return {
    async afterBlocks(done, importId, commit) {
      if (done !== at || !existsSync(file)) return;
      await commit();
      writeFileSync(`${file}.held`, String(importId));
      // Waits for the test to release it (or kill this process): a condition, polled.
      while (existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 10));
      rmSync(`${file}.held`, { force: true });
    },
  };
}
