/** Types of ./engine-chunks.mjs for its test. */
export function writeEngineChunks(exportDir: string, chunkList: Record<string, string[]>): Promise<number>;
export function readEngineChunkList(): Promise<Record<string, string[]>>;
export function engineChunkUrl(file: string): string;
