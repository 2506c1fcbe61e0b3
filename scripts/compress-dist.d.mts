// Types of scripts/compress-dist.mjs for the TypeScript that imports it (its test).

/** Extensions of the text files that get `.br` and `.gz` copies. */
export declare const compressibleExtensions: readonly string[];

/** Whether `file` is a text file that gets compressed copies. */
export declare function isCompressible(file: string): boolean;

/** Compresses every text file below `dir`; the totals in bytes. */
export declare function compressDist(
  dir: string,
): Promise<{ files: number; raw: number; br: number; gz: number }>;
