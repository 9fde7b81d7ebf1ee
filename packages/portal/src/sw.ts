export const sw: Readonly<Record<string, string>> = {}
