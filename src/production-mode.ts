/**
 * `npm start` runs in production mode unless NODE_ENV says otherwise, as the Docker image does.
 * Imported first by main.ts: graphql-js reads NODE_ENV once, when it loads, and outside
 * production every negative type check (`isNonNullType`, `isInputObjectType`, ...) also looks
 * for a second copy of graphql in the process. Variable coercion makes thousands of those per
 * 100-item append: 10% of its CPU (bench/README.md, round six). The test suite runs with
 * NODE_ENV=test, so that check stays on there.
 */
process.env.NODE_ENV ??= 'production';
