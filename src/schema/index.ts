/**
 * The executable schema: imports every *.schema.ts for its side effect, then builds.
 */
import { lexicographicSortSchema } from 'graphql';
import '../compaction/compaction.schema.js';
import '../items/item.schema.js';
import '../threads/thread.schema.js';
import { builder } from './builder.js';
import './node.schema.js';
import './scalars.js';

export const schema = lexicographicSortSchema(builder.toSchema());
