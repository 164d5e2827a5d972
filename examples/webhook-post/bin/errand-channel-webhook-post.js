#!/usr/bin/env node
// Committed launcher, so npm links the bin at install time, before the build.
import "../dist/bin.js";
