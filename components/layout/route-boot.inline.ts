/**
 * The route boot script's entry (./route-boot-action.ts), compiled by scripts/inline-scripts.mjs.
 * `__synctvRouteBootConfig` is the parameter of the wrapper that ./route-boot-script.ts puts around it.
 */
import { bootRoute, type RouteBootConfig } from './route-boot-action';

declare const __synctvRouteBootConfig: RouteBootConfig;

bootRoute(__synctvRouteBootConfig);
