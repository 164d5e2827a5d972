#!/usr/bin/env node
// Committed as plain JavaScript with its executable bit, so the `errand` link
// works right after `npm install` whatever the build does to file modes.
import "../dist/cli/bin.js";
