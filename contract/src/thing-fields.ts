import { Type } from 'typebox';

/** The fields the thing files share (categories, models, things); not re-exported by the index. */

export const Name = Type.String({ minLength: 1, maxLength: 64 });
export const Description = Type.String({ maxLength: 500 });
/** Identifiers travel in MQTT payloads and line protocol: letters, digits, _ - . : only. */
export const IDENTIFIER_PATTERN = '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$';
export const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN, maxLength: 64 });
export const Timestamp = Type.String({ description: 'ISO-8601 UTC' });
export const tags = ['things'];
