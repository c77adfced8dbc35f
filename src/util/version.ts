declare const __AGENTS_VERSION__: string;

/** The package version, injected at build time (and by vitest's `define` in tests). */
export const VERSION: string = __AGENTS_VERSION__;
