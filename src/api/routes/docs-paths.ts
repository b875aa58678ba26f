// Where the interactive reference lives in the URL space: the page and its assets' prefix. A leaf
// module: the gate reads these without importing the page (which imports the route table).
export const DOCS_PATH = '/docs';
/** Asset URLs carry a hash of their content, so they can be cached for good. */
export const DOCS_ASSETS_PREFIX = '/docs/assets/';
