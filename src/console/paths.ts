// Where the console lives in the URL space: the page, and the prefix its built files are served
// under (also the base the bundle gives a file it imports, so its URL resolves to the asset route).
export const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_PREFIX = '/console/assets/';
