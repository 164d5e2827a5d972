#!/usr/bin/env node
// Committed as plain JavaScript with its executable bit, so the `errand` link
// works right after `npm install` whatever the build does to file modes.
// It loads the bundle of dist/cli/bin.js (scripts/bundle-cli.mjs): one file starts faster than ~250 modules.
import "../dist/bin/errand.js";
