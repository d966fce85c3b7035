/** Most queries one audit makes: 10 for the apex and its policy names, the rest for SPF includes. */
export const DNS_MAX_QUERIES = 40;
/** Deepest SPF include chain followed (RFC 7208 allows 10 lookups in all). */
export const DNS_MAX_SPF_DEPTH = 10;
/** Records kept per list; more are cut and `truncatedFields` is set. */
export const DNS_MAX_RECORDS = 50;
/** Characters kept per record string; longer ones are cut and `truncatedFields` is set. */
export const DNS_MAX_RECORD_CHARS = 2048;
/** Longest domain name (RFC 1035 §3.1: 253 characters in presentation form). */
export const DNS_MAX_NAME_CHARS = 253;
