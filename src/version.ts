// The interface version this build serves (spec: Versioning) and the build's commit, if stamped.
// scripts/build.ts replaces `process.env.MDS_BUILD_COMMIT` below with the commit at build time
// (Bun `define`), so keep this exact expression; `bun src/main.ts` reads it from the env or says 'dev'.
export const VERSION = '1.0.0';
export const COMMIT = process.env.MDS_BUILD_COMMIT ?? 'dev';
