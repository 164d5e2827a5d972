import { MAGIC_COOKIE_KEY } from "../version.js";
import { guardStdout } from "./stdout-guard.js";

// Loaded first by the package entry: in a process a host started (the cookie
// is set), console output goes to stderr before any author code runs, so
// nothing but the handshake line can reach stdout.
if (process.env[MAGIC_COOKIE_KEY]) guardStdout();
