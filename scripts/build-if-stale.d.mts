// Types of scripts/build-if-stale.mjs for the TypeScript that imports it.

/** The content hash of the sources the app is built from. */
export declare function sourceHash(): string;

/** The sources' file data (names, sizes, times, inodes) without their content. */
export declare function sourceStat(): string;

/** Builds the app and the database template when stale; true when the app was built. */
export declare function buildIfStale(): boolean;

/** Writes the database template when the one of the current sources is missing. */
export declare function buildTemplateIfStale(): boolean;

/** `npm start`'s compiled server (`dist-server/server/main.mjs`). */
export declare const serverBundle: string;

/** Compiles the server when a file it was built from changed; undefined when it cannot. */
export declare function buildServerIfStale(): Promise<string | undefined>;
