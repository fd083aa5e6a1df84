/**
 * The Node interface (contract: interface Node). Ids are the contract's own (src/ids.ts): a
 * thread's id, "<threadId>:<seq>" for items, "<threadId>:compaction:<markerSeq>" for
 * compaction records. Query.node and Query.nodes are in src/nodes/.
 */
import { builder } from './builder.js';

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object with a stable, store-wide unique id.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id; see the type for its form.' }),
  }),
});
