/** Types of ./precompress.mjs for its test. */
export function precompress(exportDir: string, cacheDir?: string): Promise<{ files: number; raw: number; compressed: number; cached: number }>;
