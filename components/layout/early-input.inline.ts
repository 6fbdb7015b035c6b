/** The early-input script's entry (./early-input-run.ts), compiled by scripts/inline-scripts.mjs. */
import { installEarlyInput } from './early-input-run';

installEarlyInput();
