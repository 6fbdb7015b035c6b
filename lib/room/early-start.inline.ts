/**
 * The room link's early start's entry (./early-start-run.ts), compiled by scripts/inline-scripts.mjs.
 * `__synctvEarlyStartConfig` is the parameter of the wrapper that ./early-start.ts puts around it.
 */
import type { EarlyStartConfig, EarlyStartHost } from './early-start';
import { earlyStart } from './early-start-run';

declare const __synctvEarlyStartConfig: EarlyStartConfig;

earlyStart(__synctvEarlyStartConfig, window as unknown as EarlyStartHost);
