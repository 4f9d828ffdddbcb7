/** Vite bundles a stylesheet imported by a module into the page that loads it. */
declare module '*.css';
