/** What an alarm's message may name (docs/alarms.md). */
export interface MessageFacts {
  value: string;
  unit: string;
  thing: string;
  region: string;
  rule: string;
}

const PLACEHOLDER = /\{(value|unit|thing|region|rule)\}/g;

/**
 * The rule's message with `{value}`, `{unit}`, `{thing}`, `{region}` and `{rule}` filled in at the
 * raise; other braces are left as written, so a message may still show a literal `{`.
 */
export function fillMessage(template: string, facts: MessageFacts): string {
  return template.replace(PLACEHOLDER, (_, name: keyof MessageFacts) => facts[name]);
}
