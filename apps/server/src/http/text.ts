// The one rule for text a person types into the API (names, labels, file and folder names,
// query values): no control characters (C0 and DEL) and no unpaired UTF-16 surrogates. Neither
// can be shown, and PostgreSQL text cannot hold an unpaired surrogate as given.
import { z } from 'zod'

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/
// What `String.prototype.isWellFormed` refuses (not in our lib target).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The message of text that breaks the rule, after the field's name. */
export const TEXT_RULE_MESSAGE = 'must not contain control characters'

/** Whether `text` holds an unpaired UTF-16 surrogate. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text)
}

/** Whether `text` keeps the rule: no control characters, no unpaired surrogates. */
export function isWellFormedText(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text) && !LONE_SURROGATE.test(text)
}

/** A string of at most `max` characters that keeps the rule. */
export function plainText(max: number) {
  return z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .refine(isWellFormedText, TEXT_RULE_MESSAGE)
}

/** A required one-line label (a name, a token's name): trimmed, 1 to `max` characters. */
export function labelText(max: number) {
  return z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .refine(isWellFormedText, TEXT_RULE_MESSAGE)
}
