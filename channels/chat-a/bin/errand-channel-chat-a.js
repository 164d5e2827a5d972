#!/usr/bin/env node
// Committed launcher, so npm links (and marks executable) the bin at install
// time, before the first build creates dist/.
import "../dist/bin.js";
