/**
 * `pnpm demo:encoding [body ...]`: the encoding report (spec §2.9) Tuma answers for a few sample
 * bodies, or for the bodies given as arguments, with the parts a carrier would receive.
 */
import { analyzeBody, type PartSizing, splitParts } from "@tuma/domain"

const samples: ReadonlyArray<string> = [
  "Your code is 482193. It expires in 10 minutes.",
  "“Karibu!” — your order #1042 is on its way… 🚚",
  "Malipo ya TZS 12,500 yamepokelewa. Asante 🙏🏽",
  "Привет! Ваш код: 4821 😀",
  "Łódź → Kraków: ticket €20 {seat 14}",
  "😀👍🏽🇹🇿",
  "a".repeat(159) + "€"
]

const bodies = process.argv.length > 2 ? process.argv.slice(2) : samples
const sizing: PartSizing = process.env.PART_SIZING === "concatenated" ? "concatenated" : "single"

for (const body of bodies) {
  const { encoding, text } = analyzeBody(body, { partSizing: sizing })
  const show = (s: string) => JSON.stringify(s.length > 72 ? s.slice(0, 69) + "..." : s)
  console.log(`body  ${show(body)}`)
  console.log(`sent  ${show(text)}`)
  console.log(
    `      ${encoding.requested} -> ${encoding.final}, ${encoding.characters} characters, ` +
      `${encoding.segments} segment(s) of ${encoding.characters_per_sms}` +
      (encoding.converted ? ", converted" : "")
  )
  for (const c of encoding.changes) {
    console.log(
      `      ${c.character.padEnd(8)} ${c.name.padEnd(40)} x${c.occurrences} -> ${JSON.stringify(c.replaced_with)}`
    )
  }
  if (encoding.notice !== undefined) console.log(`      notice: ${encoding.notice}`)
  const parts = text.length > 0 ? splitParts(text, encoding.final) : []
  if (parts.length > 1) console.log(`      carrier parts: ${parts.map((p) => p.length).join(" + ")} characters`)
  console.log()
}
