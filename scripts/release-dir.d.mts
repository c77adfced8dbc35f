// The types of release-dir.mjs's exports, for the install tests that make a release directory with them.

/** Archives one executable into `out`; resolves to the archive's path. `level` is gzip's (default 6). */
export function archive(executable: string, out: string, options?: { level?: number }): Promise<string>;

/** Writes out/SHA256SUMS as sha256sum does, over every archive in `out`. */
export function writeSums(out: string): void;
