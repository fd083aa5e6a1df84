/**
 * GraphiQL at GET /graphql for browsers (issue 12, point 4): served from the package (no CDN),
 * opening on a ready example (the newest threads with their last items, and its variables)
 * instead of GraphiQL's boilerplate, and sent compressed: the page inlines its whole bundle
 * (9 MB), which brotli brings to about 1.9 MB and gzip to 2.4 MB.
 * GraphiQL keeps tabs in the browser's localStorage: the example shows when none are kept.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import { acceptedEncodings, memoisedCompression } from './content-encoding.js';

/** The example GraphiQL opens with: a named query a person can run as it is. */
export const GRAPHIQL_EXAMPLE_QUERY = `# The threads updated last, with their newest items.
# Run it: the play button or Ctrl-Enter (variables below).
# With AUTH=required, add in the Headers tab:
#   {"authorization": "Bearer <API key or JWT>"}
query RecentThreads($first: Int!, $lastItems: Int!, $filter: ThreadFilter) {
  threads(first: $first, filter: $filter, orderBy: UPDATED_AT_DESC) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    edges {
      node {
        id
        agentId
        name
        updatedAt
        itemCount
        items(last: $lastItems) {
          edges {
            node {
              __typename
              ... on ConversationItem {
                seq
                type
                createdAt
              }
              ... on MessageItem {
                role
                content
              }
              ... on ToolCallItem {
                name
                arguments
              }
              ... on ToolResultItem {
                output
                isError
              }
            }
          }
        }
      }
    }
  }
}
`;

/** The example's variables, as GraphiQL's variables editor shows them. */
export const GRAPHIQL_EXAMPLE_VARIABLES = `{
  "first": 5,
  "lastItems": 3,
  "filter": { "includeArchived": false }
}
`;

/**
 * GraphiQL's options: the title, and the example as the first tab (used while the browser
 * keeps no tabs) and as a new tab's text. `variables` (passed by yoga's page to GraphiQL's
 * initialVariables, not in yoga's type) fills the variables editor: GraphiQL 5 takes the
 * first tab's query from defaultTabs but not its variables. Its cost: a person who edited
 * the variables of the tab they left gets them back in a new tab, not in that one.
 */
export const graphiqlOptions: GraphiQLOptions & { variables: string } = {
  title: 'threadstore',
  defaultQuery: GRAPHIQL_EXAMPLE_QUERY,
  defaultTabs: [{ query: GRAPHIQL_EXAMPLE_QUERY, variables: GRAPHIQL_EXAMPLE_VARIABLES }],
  variables: GRAPHIQL_EXAMPLE_VARIABLES,
};

let page: ReturnType<typeof memoisedCompression> | null = null;

/** The GraphiQL page (the same for every request), rendered once. */
function graphiqlPage() {
  page ??= memoisedCompression(Buffer.from(renderGraphiQL(graphiqlOptions)));
  return page;
}

/** Yoga's `renderGraphiQL` option: the page rendered once, from the package. */
export function renderGraphiQLPage(): string {
  return graphiqlPage().body.toString('utf8');
}

/**
 * Sends GraphiQL's page brotli- or gzip-compressed when the browser accepts it (each made
 * once, at the first request that asks for it), with `Vary: Accept-Encoding`. Other
 * responses pass untouched.
 */
export function compressedGraphiQL(): Plugin {
  return {
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (request.method !== 'GET' || response.status !== 200) return;
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      if (new URL(request.url).pathname !== '/graphql') return;
      const [encoding] = acceptedEncodings(request.headers.get('accept-encoding'));
      const headers = new fetchAPI.Headers(response.headers);
      headers.append('vary', 'Accept-Encoding');
      headers.set('cache-control', 'no-cache');
      if (!encoding) {
        setResponse(new fetchAPI.Response(response.body, { status: response.status, headers }));
        return;
      }
      const bytes = await graphiqlPage().get(encoding);
      headers.set('content-encoding', encoding);
      headers.set('content-length', String(bytes.length));
      await response.body?.cancel();
      setResponse(new fetchAPI.Response(new Uint8Array(bytes), { status: 200, headers }));
    },
  };
}
