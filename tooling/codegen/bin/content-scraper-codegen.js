#!/usr/bin/env node
// A committed entry point, so that pnpm can link the command at install time, before `dist/` is built.
import "../dist/bin/generate.js";
