import { z } from 'zod';

/*
 * Field builders the schema files share, so a message users see or a rule (a decimal's pattern, a page size's
 * bounds) has one home. Internal to the package: the schemas built from them are the contract, not these.
 */

/** Money and quantities as the exchange writes them: decimal strings, never floats */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number');

/** A time in ms since epoch */
export const ms = z.number().int();

/** A wallet's (or one asset's) balances as the exchange reports them */
export const walletFields = {
  walletBalance: decimal,
  unrealizedPnl: decimal,
  marginBalance: decimal,
  availableBalance: decimal,
};

/** What the exchange's income history books as profit and loss of a window: fees and funding paid are negative */
export const incomeFields = {
  realizedPnl: decimal,
  commission: decimal,
  fundingFee: decimal,
};

/**
 * A whole-number query parameter counted from 1 (`limit`, `page`, `pageSize`), coerced from the query string,
 * with `max` when the endpoint has one
 */
export const countParam = (name: string, range: { max?: number; default: number }) => {
  const atLeastOne = z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`);
  const bounded =
    range.max === undefined ? atLeastOne : atLeastOne.max(range.max, `${name} must be at most ${range.max}`);
  return bounded.default(range.default);
};

/** A time query parameter, ms since epoch */
export const msParam = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a time in ms since epoch` })
    .int(`${name} must be a time in ms since epoch`)
    .nonnegative(`${name} must be a time in ms since epoch`);

/** A time range, ms since epoch, both ends inclusive: `to` defaults to now, `from` to 30 days before `to` */
export const rangeQuery = {
  from: msParam('from').optional().describe('Start, ms since epoch (default: 30 days before to)'),
  to: msParam('to').optional().describe('End, ms since epoch, inclusive (default: now)'),
};

/** The column a list query sorts on, one of `fields`, `time` by default */
export const sortParam = <const S extends readonly ['time', ...string[]]>(fields: S) =>
  z
    .enum(fields, { error: `sort must be one of ${fields.join(', ')}` })
    .default('time')
    .describe('Column to sort on (ties: newest first)');

/** The direction a list query sorts in, newest (largest) first by default */
export const orderParam = z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc');

/** Refuses a range query whose `from` is after its `to` (either may be left out) */
export const fromNotAfterTo = <T extends z.ZodType<{ from?: number; to?: number }>>(query: T) =>
  query.refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  });

/** The fields of one page of a paged, filtered read over a range; each read adds how fresh its data is */
export const pageOf = <T extends z.ZodType>(item: T) => ({
  from: ms,
  to: ms,
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  /** Rows matching the filter, all pages */
  total: z.number().int().nonnegative(),
  items: z.array(item),
});

/**
 * A form field's text: empty is null ("no limit"), anything else must read as a number, then pass `limit` (the
 * stored field's own rule, so the form and the server refuse the same values)
 */
export const limitText = (limit: z.ZodType<number | null, number | null>, label: string) =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null;
      const n = Number(text);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number (or empty for no limit)` });
        return z.NEVER;
      }
      return n;
    })
    .pipe(limit);
