// What the pages use of Vite's own types (the pages' tsconfig loads no ambient types).
interface ImportMeta {
  glob<T>(pattern: string, options: { query: string; import: string; eager: true }): Record<string, T>;
}
