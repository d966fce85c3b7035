import { type CosignatureVerifier, cosignatureVerifier, TlogError } from '@storefront/tlog';

/** A witness the log submits its checkpoints to (C2SP tlog-witness). */
export interface LogWitness {
  /** Its submission prefix: checkpoints go to `<url>/add-checkpoint`. */
  readonly url: string;
  /** Its key (`vkey` of type 0x04, C2SP tlog-cosignature). */
  readonly vkey: string;
  readonly verifier: CosignatureVerifier;
}

/**
 * The witnesses of `LOG_WITNESSES`: entries separated by commas or newlines, each the
 * witness's URL and its verifier key separated by spaces
 * (`https://witness.example/w1 witness.example/w1+1a2b3c4d+BN…`). A malformed entry adds
 * a line to `problems`.
 */
export function parseWitnesses(value: string | undefined, problems: string[]): LogWitness[] {
  const witnesses: LogWitness[] = [];
  for (const entry of (value ?? '').split(/[,\n]/)) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const [url = '', vkey = '', ...rest] = trimmed.split(/\s+/);
    if (rest.length > 0 || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      problems.push(`LOG_WITNESSES: \`${trimmed}\` is not \`<http(s) URL> <witness vkey>\``);
      continue;
    }
    try {
      witnesses.push({ url: url.replace(/\/+$/, ''), vkey, verifier: cosignatureVerifier(vkey) });
    } catch (error) {
      if (!(error instanceof TlogError)) throw error;
      problems.push(`LOG_WITNESSES: ${error.message}`);
    }
  }
  return witnesses;
}

/** A witness's identity in the database: `<name>+<key ID, 8 hex digits>`. */
export function witnessId(witness: LogWitness): string {
  return `${witness.verifier.name}+${witness.verifier.keyId.toString(16).padStart(8, '0')}`;
}
