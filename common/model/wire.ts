import { z } from 'zod';

/**
 * Wire primitives shared by every resource schema.
 *
 * Decision on numbers: the service documents money and counts as JSON numbers, but deployments of
 * this API (and hand-written test payloads) sometimes send numeric strings ("1000", " 12.5 ").
 * Every numeric field therefore ACCEPTS a finite number or a string holding a plain decimal
 * number (optional sign, digits, optional fraction, optional exponent), and always OUTPUTS a
 * JS number, so inferred types match the documented ones (`number`). Money arithmetic never happens on
 * these numbers: common/money converts them to decimal strings (`toDecimalString`) before any
 * calculation, and produces them again only when serialising a computed draft.
 * Empty strings and non-numeric strings are rejected, never silently turned into 0.
 */
export const NUMERIC_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export const WireNumber = z.union([
  z.number().refine(Number.isFinite, 'must be a finite number'),
  z
    .string()
    .trim()
    .regex(NUMERIC_STRING, 'must be a number')
    .transform((s) => Number(s))
    .refine(Number.isFinite, 'must be a finite number'),
]);

export const WireInteger = WireNumber.refine(Number.isInteger, 'must be a whole number');

/** Text the service may leave out or send as null. */
export const WireText = z.string().nullish();

/** Flags the service may leave out or send as null. */
export const WireFlag = z.boolean().nullish();
