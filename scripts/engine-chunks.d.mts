/** Types of ./engine-chunks.mjs for its test. */
export function writeEngineChunks(exportDir: string, chunkList: Record<string, string[]>): Promise<number>;
