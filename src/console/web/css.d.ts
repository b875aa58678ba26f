// The console's stylesheet is imported for its side effect: the bundler (src/console/bundle.ts)
// puts it beside the script. TypeScript checks that such an import names something it knows.
declare module '*.css' {}
