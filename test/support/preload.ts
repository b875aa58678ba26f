// Global test setup: temp dirs for test data live under the OS temp dir and are removed by
// their owners; nothing here starts servers.
process.env.MDS_TEST = '1';
