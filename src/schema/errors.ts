/**
 * How failures reach clients (contract: Errors). Our ThreadstoreErrors become GraphQL errors
 * with their code; variables that do not coerce get BAD_USER_INPUT; everything unexpected is
 * masked as "Unexpected error." with INTERNAL_SERVER_ERROR and logged with its stack.
 */
import { GraphQLError } from 'graphql';
import { maskError as yogaMaskError } from 'graphql-yoga';
import type { Logger } from 'pino';
import { ThreadstoreError } from '../errors.js';

/** Builds yoga's maskError for a logger. */
export function createMaskError(logger: Logger) {
  return (error: unknown, message: string, isDev?: boolean): Error => {
    const graphQLError = error instanceof GraphQLError ? error : null;
    const original = graphQLError?.originalError ?? error;
    if (original instanceof ThreadstoreError) {
      return new GraphQLError(original.message, {
        nodes: graphQLError?.nodes,
        source: graphQLError?.source,
        positions: graphQLError?.positions,
        path: graphQLError?.path,
        extensions: { ...original.details, code: original.code },
      });
    }
    if (graphQLError && (!graphQLError.originalError || graphQLError.originalError instanceof GraphQLError)) {
      // Parse, validation and coercion errors: the client's own mistake, shown as is.
      if (!graphQLError.extensions.code && /^(Variable "\$|Argument ")/.test(graphQLError.message)) {
        return new GraphQLError(graphQLError.message, {
          nodes: graphQLError.nodes,
          source: graphQLError.source,
          positions: graphQLError.positions,
          path: graphQLError.path,
          extensions: { ...graphQLError.extensions, code: 'BAD_USER_INPUT' },
        });
      }
      return graphQLError;
    }
    logger.error({ err: original, path: graphQLError?.path }, 'unexpected error');
    const masked = yogaMaskError(error, message, isDev);
    if (masked instanceof GraphQLError) {
      return new GraphQLError(masked.message, {
        nodes: masked.nodes,
        source: masked.source,
        positions: masked.positions,
        path: masked.path,
        extensions: { ...masked.extensions, code: 'INTERNAL_SERVER_ERROR' },
      });
    }
    return masked;
  };
}
