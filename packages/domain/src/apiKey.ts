/**
 * The shape of an API key (decisions §2): `tuma_live_<random>` / `tuma_test_<random>`, and the
 * documentation placeholders that are never keys. One home for both: the auth middleware refuses
 * what they refuse, and the issuer never draws a key they would refuse.
 */

/** `tuma_live_…` / `tuma_test_…` followed by 16–128 URL-safe characters. */
export const API_KEY_PATTERN = /^tuma_(live|test)_([A-Za-z0-9]{16,128})$/

/**
 * Whether a key is a documentation placeholder (`YOUR_API_KEY`, `tuma_live_xxxx…`, `tuma_test_…`,
 * `tuma_live_yourapikey`): an empty or elided random part, one of x/X/./…/* only, or a word such as
 * "your", "api", "key", "example", "placeholder" followed by letters only. A random part that merely
 * begins with such a word and has digits in it (an issued key can: `tuma_live_ApiK3…`) is not one.
 */
export const isPlaceholderKey = (key: string): boolean => {
  const k = key.trim()
  if (/^(YOUR[_-]?API[_-]?KEY|<API_KEY>|API_KEY|<YOUR_API_KEY>)$/i.test(k)) return true
  const m = /^tuma_(live|test)_(.*)$/i.exec(k)
  if (m === null) return false
  const rest = m[2]
  return rest === "" || /^[xX.…*]+$/.test(rest) || /^(your|api|key|example|placeholder)[A-Za-z_-]*$/i.test(rest) ||
    rest.includes("…") || rest.includes("...")
}
