/** The draft-07 keywords a JSON-Schema string may use (the spec's "core subset"). */
export const SUPPORTED_KEYWORDS = [
  'type',
  'required',
  'properties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
  'format',
  'additionalProperties',
  'nullable',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
] as const;

/** Annotations: accepted (when well-typed) and dropped from the normalised schema. */
export const ANNOTATION_KEYWORDS = [
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
] as const;

/** Why a known keyword outside the subset is refused, when there is more to say. */
const REFUSAL_HINTS: Readonly<Record<string, string>> = {
  $ref: 'references are not supported; inline the referenced schema',
  $id: 'there are no references for an identifier to serve',
  definitions: 'definitions are only useful with `$ref`, which is not supported; inline them',
  $defs: 'definitions are only useful with `$ref`, which is not supported; inline them',
  patternProperties: 'use `properties`, or `additionalProperties` with a schema',
  uniqueItems: 'its cost grows with the square of the array length',
  $data: '`$data` references are not supported',
};

/** Known JSON-Schema keywords (draft-07 and later) that are outside the subset. */
const KNOWN_REFUSED = [
  '$ref',
  '$id',
  '$data',
  '$defs',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'definitions',
  'multipleOf',
  'uniqueItems',
  'additionalItems',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'patternProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'deprecated',
] as const;

/**
 * Every key that marks a JSON object as a JSON Schema rather than a shorthand map:
 * the subset, the annotations, and the known keywords that are refused.
 */
export const SCHEMA_VOCABULARY: ReadonlySet<string> = new Set<string>([
  ...SUPPORTED_KEYWORDS,
  ...ANNOTATION_KEYWORDS,
  ...KNOWN_REFUSED,
]);

/** The message for a keyword outside the subset, found at `at` (a pointer into the schema). */
export function unsupportedKeyword(keyword: string, at: string): string {
  const hint = REFUSAL_HINTS[keyword];
  const known = (KNOWN_REFUSED as readonly string[]).includes(keyword);
  const what = known ? 'is outside the supported draft-07 subset' : 'is not a supported keyword';
  return (
    `\`${keyword}\` at \`${at}\` ${what}${hint === undefined ? '' : ` (${hint})`}; ` +
    `a schema may use ${SUPPORTED_KEYWORDS.join(', ')}, and the annotations ${ANNOTATION_KEYWORDS.join(', ')}`
  );
}
