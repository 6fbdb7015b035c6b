/** Types of ./csp.mjs for its test. */
export declare const BASE_DIRECTIVES: string[];
export declare function inlineScriptHashes(html: string): string[];
export declare function documentPolicy(html: string, runScripts?: string[]): string;
export declare function withPolicy(html: string, engineChunks?: Record<string, string>): string;
