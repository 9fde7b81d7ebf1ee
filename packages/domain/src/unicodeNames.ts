/**
 * Loads the Unicode name table (`unicode-name`) for `nameOf` where Node's module loader is not
 * available to load it on first use (the portal's browser bundle imports this module for its side
 * effect). Under Node nothing needs to import it.
 */
import { unicodeName } from "unicode-name"
import { setNameSource } from "./codePointClass.js"

setNameSource(unicodeName)
