/**
 * English and Kiswahili. The English text is the key (the accessible names tests use are the
 * English ones); `sw` maps it to Kiswahili, falling back to English for a missing entry. The choice
 * is remembered in localStorage (`tuma.lang`) and, once signed in, saved as the user's locale.
 */
import type { ReactNode } from "react"
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react"
import { sw } from "./sw.js"

export type Lang = "en" | "sw"

export const LANG_KEY = "tuma.lang"

const stored = (): Lang => {
  try {
    return window.localStorage.getItem(LANG_KEY) === "sw" ? "sw" : "en"
  } catch {
    return "en"
  }
}

/** Fills `{name}` placeholders. */
const fill = (s: string, vars?: Readonly<Record<string, string | number>>) =>
  vars === undefined ? s : s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m))

export type T = (en: string, vars?: Readonly<Record<string, string | number>>) => string

interface I18n {
  readonly lang: Lang
  readonly setLang: (lang: Lang) => void
  readonly t: T
}

const Context = createContext<I18n>({ lang: "en", setLang: () => {}, t: (s, v) => fill(s, v) })

export function I18nProvider(props: { readonly children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(stored)
  const setLang = useCallback((l: Lang) => {
    setLangState(l)
    try {
      window.localStorage.setItem(LANG_KEY, l)
    } catch {
      // storage refused (private mode): the choice lasts for this page
    }
  }, [])
  useEffect(() => {
    document.documentElement.lang = lang
  }, [lang])
  const value = useMemo<I18n>(() => ({
    lang,
    setLang,
    t: (en, vars) => fill(lang === "sw" ? sw[en] ?? en : en, vars)
  }), [lang, setLang])
  return <Context.Provider value={value}>{props.children}</Context.Provider>
}

export const useI18n = () => useContext(Context)
