import { fullFormats as full } from 'ajv-formats/dist/formats.js';
import RE2 from 're2';
import { isHostname, isIdnHostname } from './idna.js';
import type { ValidateFormat } from './types.js';

/** The `validate` function of an ajv-formats definition that is a function. */
function nativeCheck(name: 'date' | 'time' | 'date-time'): (value: string) => boolean {
  const definition = full[name] as { validate: (value: string) => boolean };
  return definition.validate;
}

/** An ajv-formats regular expression, recompiled for RE2. */
function re2(source: RegExp): RE2 {
  return new RE2(source.source, source.flags);
}

// RFC 3986 URI, the regular expression of ajv-formats 3.0.1 (MIT, (c) Evgeny Poberezkin).
const URI = new RE2(
  String.raw`^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$`,
  'i',
);
const EMAIL = re2(full.email as RegExp);
const IPV4 = re2(full.ipv4 as RegExp);
const IPV6 = re2(full.ipv6 as RegExp);
const UUID = re2(full.uuid as RegExp);
const URI_REFERENCE = re2(full['uri-reference'] as RegExp);
const URI_TEMPLATE = re2(full['uri-template'] as RegExp);
const JSON_POINTER = re2(full['json-pointer'] as RegExp);
const RELATIVE_JSON_POINTER = re2(full['relative-json-pointer'] as RegExp);

/**
 * The formats that are checked: ajv-formats' "full" semantics, except `hostname` and
 * `idn-hostname`, which follow IDNA2008 (see idna.ts). Every check whose regular
 * expression could backtrack runs on RE2 (linear time); `date`, `time` and `date-time`
 * keep ajv-formats' functions, whose fixed, anchored expressions cannot.
 */
export const FORMAT_CHECKS: Readonly<Record<ValidateFormat, (value: string) => boolean>> = {
  date: nativeCheck('date'),
  'date-time': nativeCheck('date-time'),
  email: (value) => EMAIL.test(value),
  hostname: isHostname,
  'idn-hostname': isIdnHostname,
  ipv4: (value) => IPV4.test(value),
  ipv6: (value) => IPV6.test(value),
  time: nativeCheck('time'),
  // ajv-formats: a URI must hold `/` or `:` (so a bare fragment is not one), then match.
  uri: (value) => (value.includes('/') || value.includes(':')) && URI.test(value),
  'uri-reference': (value) => URI_REFERENCE.test(value),
  'uri-template': (value) => URI_TEMPLATE.test(value),
  'json-pointer': (value) => JSON_POINTER.test(value),
  'relative-json-pointer': (value) => RELATIVE_JSON_POINTER.test(value),
  uuid: (value) => UUID.test(value),
};
