/**
 * Scalars from graphql-scalars: DateTime (ISO-8601 in UTC with milliseconds) and JSON.
 */
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { builder } from './builder.js';

builder.addScalarType('DateTime', DateTimeResolver, {
  description: 'ISO-8601 string in UTC with millisecond precision, e.g. 2026-01-02T03:04:05.678Z',
});
builder.addScalarType('JSON', JSONResolver, { description: 'Any JSON value.' });
