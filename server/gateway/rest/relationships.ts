import { PostgrestError } from './errors.ts';
import type { ForeignKey, Relation, SchemaCache } from './schema-cache.ts';

/** How an embedded resource hangs off its parent: join column pairs, and whether it is one row. */
export interface Relationship {
  target: Relation;
  /** [parent column, embedded column] pairs: `embedded.c2 = parent.c1`. */
  pairs: Array<[string, string]>;
  toOne: boolean;
  foreignKey: ForeignKey;
}

/**
 * Finds the foreign key an embedding follows, as PostgREST does: many-to-one when the key is on
 * the parent, one-to-many (one-to-one when the key's columns are unique) when it is on the
 * embedded table. `hint` (`table!hint`) names the constraint or one of its columns. The name
 * may also be a foreign-key column or constraint of the parent (`form:form_id(*)`).
 */
export function findRelationship(
  cache: SchemaCache,
  parent: Relation,
  name: string,
  hint: string | undefined,
): Relationship {
  const candidates: Relationship[] = [];
  const target = cache.relations.get(name);
  for (const key of cache.foreignKeys) {
    if (target) {
      if (key.table === parent.name && key.referencedTable === target.name) {
        candidates.push(manyToOne(target, key));
      }
      if (key.referencedTable === parent.name && key.table === target.name) {
        candidates.push(oneToMany(target, key));
      }
    } else if (
      key.table === parent.name &&
      (key.name === name || (key.columns.length === 1 && key.columns[0] === name))
    ) {
      const referenced = cache.relations.get(key.referencedTable);
      if (referenced) candidates.push(manyToOne(referenced, key));
    }
  }
  const matching =
    hint === undefined
      ? candidates
      : candidates.filter(
          ({ foreignKey }) =>
            foreignKey.name === hint ||
            foreignKey.columns.includes(hint) ||
            foreignKey.referencedColumns.includes(hint),
        );
  if (matching.length === 1) return matching[0]!;
  if (matching.length === 0) {
    throw new PostgrestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`,
      {
        details: `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
      },
    );
  }
  const options = matching.map(({ foreignKey }) => `'${name}!${foreignKey.name}'`).join(', ');
  throw new PostgrestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`,
    {
      details: matching
        .map(
          ({ foreignKey, toOne }) =>
            `${foreignKey.name} (${toOne ? 'to-one' : 'to-many'}: ${foreignKey.table}(${foreignKey.columns.join(', ')}) references ${foreignKey.referencedTable}(${foreignKey.referencedColumns.join(', ')}))`,
        )
        .join('; '),
      hint: `Try changing '${name}' to one of the following: ${options}. Find the desired relationship in the 'details' key.`,
    },
  );
}

function manyToOne(target: Relation, key: ForeignKey): Relationship {
  return {
    target,
    pairs: key.columns.map((column, i) => [column, key.referencedColumns[i]!]),
    toOne: true,
    foreignKey: key,
  };
}

function oneToMany(target: Relation, key: ForeignKey): Relationship {
  const unique = target.uniqueKeys.some(
    (columns) =>
      columns.length === key.columns.length && columns.every((c) => key.columns.includes(c)),
  );
  return {
    target,
    pairs: key.referencedColumns.map((column, i) => [column, key.columns[i]!]),
    toOne: unique,
    foreignKey: key,
  };
}
