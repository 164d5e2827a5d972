#!/usr/bin/env node
import { main } from "../dist/channel/main.js";

process.exitCode = await main(process.argv.slice(2));
