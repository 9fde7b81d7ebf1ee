/**
 * Provider message ids as carriers write them differ between the submit answer and the delivery
 * receipt: hex in one, decimal in the other, upper or lower case, with or without leading zeros.
 * Stored ids are normalised with `normalizeRef`; a receipt is looked up by every `refCandidates`
 * of its id, the literal form first.
 */

const HEX = /^[0-9a-f]+$/
const DEC = /^[0-9]+$/

/** Lower case, trimmed; leading zeros dropped when the id is all hex digits ("000" -> "0"). */
export const normalizeRef = (id: string): string => {
  const lower = id.trim().toLowerCase()
  if (HEX.test(lower)) {
    const stripped = lower.replace(/^0+/, "")
    return stripped === "" ? "0" : stripped
  }
  return lower
}

/**
 * The normalised forms a receipt id may have been stored under, most literal first:
 * the id itself, then (when all decimal digits) its hexadecimal value, then (when all hex digits)
 * its decimal value.
 */
export const refCandidates = (id: string): ReadonlyArray<string> => {
  const literal = normalizeRef(id)
  const out = [literal]
  if (DEC.test(literal) && literal.length <= 40) {
    const hex = BigInt(literal).toString(16)
    if (!out.includes(hex)) out.push(hex)
  }
  if (HEX.test(literal) && literal.length <= 32) {
    const dec = BigInt("0x" + literal).toString(10)
    if (!out.includes(dec)) out.push(dec)
  }
  return out
}

const STATUS_TEXT: Record<string, string> = {
  EXPIRED: "the carrier could not reach the handset before the message expired",
  DELETED: "the carrier deleted the message before delivery",
  UNDELIV: "the carrier could not deliver the message to the handset",
  UNKNOWN: "the carrier reported the message in an unknown state",
  REJECTD: "the carrier rejected the message"
}

/** A failure reason written for a person, from a receipt's status word and error code. */
export const describeReceiptFailure = (stat: string, err: string | null): string => {
  const what = STATUS_TEXT[stat.toUpperCase()] ?? `the carrier reported status ${stat}`
  const code = err !== null && !/^0+$/.test(err) ? `, error ${err}` : ""
  return `Delivery failed: ${what} (${stat.toUpperCase()}${code}).`
}
