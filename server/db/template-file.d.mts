// Types of server/db/template-file.mjs for the TypeScript that imports it.

/** The folder the build writes the template into (`dist-server/`). */
export declare const defaultTemplateDir: string;

/** The hash of the template's sources below `root` (default: this project). */
export declare function templateStamp(root?: string): string;

/** The template's folder for a stamp, in `dir`. */
export declare function templateFile(stamp?: string, dir?: string): string;

/** The template that matches the sources, when one was built; otherwise undefined. */
export declare function findTemplate(dir?: string, stamp?: string): string | undefined;
