/**
 * The executable schema: imports every *.schema.ts for its side effect, then builds.
 */
import { lexicographicSortSchema } from 'graphql';
import '../compaction/compaction.schema.js';
import '../identity/identity.schema.js';
import '../import/import.schema.js';
import '../items/item.schema.js';
import '../items/item-write.schema.js';
import '../nodes/node.schema.js';
import '../threads/thread.schema.js';
import '../transcripts/transcript.schema.js';
import { builder } from './builder.js';
import './scalars.js';

export const schema = lexicographicSortSchema(builder.toSchema());
