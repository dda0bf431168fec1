/** The package version the console was built with (vite.config.ts `define`). */
declare const __GRIDPORT_VERSION__: string;
