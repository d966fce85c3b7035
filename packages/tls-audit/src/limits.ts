/** Certificates read from the chain the server sent; more are dropped and `truncatedFields` is set. */
export const TLS_MAX_CHAIN = 8;
/** Names kept per certificate's subjectAltName; more are cut and `truncatedFields` is set. */
export const TLS_MAX_NAMES = 100;
/** Characters kept per string (subject, issuer, a name, the HSTS value). */
export const TLS_MAX_CHARS = 1024;
/** Fewer days left than this fails the expiry-soon check. */
export const TLS_MIN_DAYS_LEFT = 14;
