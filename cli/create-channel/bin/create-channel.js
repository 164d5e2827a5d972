#!/usr/bin/env node
// The unscoped name exists so that `npx create-channel` and `npm init channel`
// reach Errand's scaffolder; the scaffolder itself lives in @errand/cli.
import { main } from "@errand/cli/create-channel";

process.exitCode = await main(process.argv.slice(2));
