/**
 * One scrape for several processes (the `--workers` design of docs/observability.md): the
 * expositions of each process merged into one, every sample labelled `process="<name>"`, each
 * family's `# HELP` / `# TYPE` written once with all its samples together. Counters and histograms
 * are not summed: a restarted process resets only its own series, so `rate()` stays right.
 *
 * Pure text in, text out; the cluster primary (issue 12) will call it with what its workers answer
 * over IPC. Families a process reports without samples are kept; a family whose TYPE differs
 * between processes keeps the first process's TYPE (they come from one code base).
 */

interface Family {
  help: string | undefined
  type: string | undefined
  readonly samples: Array<string>
}

const familyOf = (sample: string, types: ReadonlyMap<string, string | undefined>): string => {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(sample)?.[0] ?? ""
  if (types.has(name)) return name
  // histogram and summary samples belong to their base family
  const base = name.replace(/_(bucket|sum|count)$/, "")
  return types.has(base) ? base : name
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

/** `name{a="b"} 1` -> `name{process="p",a="b"} 1` */
const withProcess = (sample: string, label: string): string => {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{)?/.exec(sample)!
  const name = m[1]!
  return m[2] === undefined
    ? `${name}{${label}}${sample.slice(name.length)}`
    : `${name}{${label},${sample.slice(name.length + 1)}`
}

export const mergeExpositions = (
  parts: ReadonlyArray<{ readonly process: string; readonly text: string }>
): string => {
  const families = new Map<string, Family>()
  const types = new Map<string, string | undefined>()
  const family = (name: string) => {
    let f = families.get(name)
    if (f === undefined) {
      f = { help: undefined, type: undefined, samples: [] }
      families.set(name, f)
      types.set(name, undefined)
    }
    return f
  }
  for (const { process, text } of parts) {
    const label = `process="${escapeLabel(process)}"`
    for (const line of text.split("\n")) {
      if (line === "") continue
      const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line)
      if (meta !== null) {
        const f = family(meta[2]!)
        if (meta[1] === "HELP") f.help ??= meta[3]
        else {
          f.type ??= meta[3]
          types.set(meta[2]!, f.type)
        }
        continue
      }
      if (line.startsWith("#")) continue
      family(familyOf(line, types)).samples.push(withProcess(line, label))
    }
  }
  let out = ""
  for (const [name, f] of families) {
    if (f.help !== undefined) out += `# HELP ${name} ${f.help}\n`
    if (f.type !== undefined) out += `# TYPE ${name} ${f.type}\n`
    for (const s of f.samples) out += s + "\n"
  }
  return out
}
