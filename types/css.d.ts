/** Global stylesheets imported for their side effect (app/globals.css); Next bundles them. */
declare module '*.css';
