// Types of scripts/desk-chunks.mjs for the TypeScript that imports it (vite.config.ts, its test).

/** One chunk as Vite's build manifest (dist/.vite/manifest.json) describes it. */
export interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
  /** Every module in it; only a bundle says (the manifest names `src`). */
  modules?: string[];
}

export type ChunkGraph = Record<string, Chunk>;

export interface DeskFiles {
  deskOnly: Set<string>;
  problems: string[];
}

export declare const deskEntry: string;

export declare function deskOnlyFiles(graph: ChunkGraph, entry?: string): DeskFiles;

export declare function findDeskLeaks(build: {
  graph: ChunkGraph;
  precached: string[];
  pages: { name: string; html: string }[];
}): DeskFiles;

export declare function precacheList(swSource: string): string[];

export declare function readBuild(dist: string): {
  graph: ChunkGraph;
  precached: string[];
  pages: { name: string; html: string }[];
};

export declare function graphOfBundle(bundle: Record<string, unknown>, root: string): ChunkGraph;
