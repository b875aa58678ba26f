// The stylesheet import of main.ts: the bundler emits it as the page's CSS file.
declare module '*.css';
