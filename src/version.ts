// The interface version this build serves (spec: Versioning) and the build's commit, if stamped.
export const VERSION = '1.0.0';
export const COMMIT = process.env.MDS_BUILD_COMMIT ?? 'dev';
