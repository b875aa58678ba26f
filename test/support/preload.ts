// Global test setup: temp dirs for test data live under the OS temp dir and are removed by
// their owners; nothing here starts servers.
import { TEST_SERVER_ENV } from './env.ts';

process.env.MDS_TEST = '1';
// Children spawned with the runner's own environment get the test server settings too.
Object.assign(process.env, TEST_SERVER_ENV);
