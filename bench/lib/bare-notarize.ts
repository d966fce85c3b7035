import { INLINE_SOURCE, notarize } from './server-deps.js';

/** The fixed time the bare side and the in-process loop notarize at. */
export const WITNESSED_AT = '2026-03-14T12:00:00.000Z';

/**
 * The bare side's `/notarize` route (bench/README.md, "Service overhead"): `notarize()`
 * on the query's `content`, answered as the key door's envelope without its receipt,
 * unsigned and unmetered.
 */
export function bareNotarize(
  baseUrl: string,
): (
  req: { readonly query: Record<string, unknown> },
  res: { json(body: unknown): unknown },
) => void {
  return (req, res) => {
    const content = String(req.query.content ?? '');
    const result = notarize({ content, witnessedAt: WITNESSED_AT }, { baseUrl });
    if (!result.ok) throw new Error(`notarize refused the content: ${result.error}`);
    res.json({
      ok: true,
      url: INLINE_SOURCE,
      status: 200,
      text: result.text,
      fetchedAt: WITNESSED_AT,
      data: result.data,
    });
  };
}
