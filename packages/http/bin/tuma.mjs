#!/usr/bin/env node
// The installed `tuma` command: runs src/bin.ts through tsx (the packages ship TypeScript sources).
import { register } from "tsx/esm/api"
register()
await import("../src/bin.ts")
