/**
 * `npm start` runs in production mode unless NODE_ENV says otherwise, as the Docker image does.
 * Imported first by main.ts: graphql-js reads NODE_ENV once, when it loads, and outside
 * production every negative type check (`isNonNullType`, `isInputObjectType`, ...) also looks
 * for a second copy of graphql in the process. Variable coercion makes thousands of those per
 * 100-item append: 10% of its CPU (bench/README.md, round six). The test suite runs with
 * NODE_ENV=test, so that check stays on there.
 */
process.env.NODE_ENV ??= 'production';

/**
 * True when graphql-js loaded in production mode: a look-alike of one of its classes is then
 * just not an instance, where outside production graphql-js throws, taking it for a second copy
 * of itself. Said on the start line (main.ts), so an import that loads graphql before this
 * module shows. A dynamic import: a static one would load graphql before NODE_ENV is set.
 */
export async function graphqlInProductionMode(): Promise<boolean> {
  const { isObjectType } = await import('graphql');
  try {
    isObjectType({ [Symbol.toStringTag]: 'GraphQLObjectType' });
    return true;
  } catch {
    return false;
  }
}
