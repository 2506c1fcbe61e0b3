/**
 * How deep a request body may nest arrays and objects. No body supabase-js sends for the desk
 * comes near it; a body nested thousands deep parses, but would later overflow the stack where
 * it is written out again (JSON.stringify before the database), a 500 instead of a 400.
 */
export const maxJsonDepth = 100;

/** Whether JSON text nests deeper than `limit`; brackets inside strings do not count. */
export function nestsTooDeep(text: string, limit = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === ']' || char === '}') depth -= 1;
  }
  return false;
}
